/*
 * gc_wasi_config.h - bdwgc's configuration for a WASI module (cmake/LlgoWasmBdwgc.cmake
 * includes it in front of every bdwgc source on a WASI target; docs/gc-bdwgc.md).
 * bdwgc 8.2.2 knows wasm32 only as Emscripten, so a WASI build takes that configuration: a
 * 32-bit machine (I386: word size and alignment only), no data segment of its own (llgo adds
 * the module's), no mmap. Emscripten's two calls are answered by the emscripten.h beside this.
 */
#ifndef LLGO_BDWGC_WASI_CONFIG_H
#define LLGO_BDWGC_WASI_CONFIG_H

#define mach_type_known
#define I386
#define EMSCRIPTEN
/* One wasm page; the wasi-threads libc declares no getpagesize. */
#define GETPAGESIZE() 65536U
/* wasi-libc's signal and mman headers are only included: nothing of them is called. */
#define _WASI_EMULATED_SIGNAL
#define _WASI_EMULATED_MMAN

#endif
