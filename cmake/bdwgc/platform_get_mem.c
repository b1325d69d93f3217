/*
 * platform_get_mem.c - where bdwgc gets its heap on wasm (PLATFORM_GETMEM, compiled into the
 * bdwgc library by cmake/LlgoWasmBdwgc.cmake): from the libc allocator, block-aligned. bdwgc's
 * Emscripten configuration would otherwise use mmap, which WASI lacks and Emscripten emulates
 * with malloc anyway. The memory is never given back (bdwgc reuses it).
 */
#include "private/gc_priv.h"

#include <stdlib.h>

void *platform_get_mem(size_t bytes) {
  size_t rounded = (bytes + HBLKSIZE - 1) & ~(size_t)(HBLKSIZE - 1);
  return aligned_alloc(HBLKSIZE, rounded);
}
