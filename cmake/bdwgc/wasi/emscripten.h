/*
 * emscripten.h for bdwgc on WASI (cmake/LlgoWasmBdwgc.cmake): bdwgc 8.2.2 knows wasm32 only as
 * Emscripten, so WASI builds take that configuration (EMSCRIPTEN, I386) and this header answers
 * the two Emscripten calls it makes. Neither is used for roots by llgo (runtime/src/gc_bdwgc.c
 * pushes its own and cuts bdwgc's stack scan to bdwgc's frames).
 */
#ifndef LLGO_BDWGC_WASI_EMSCRIPTEN_H
#define LLGO_BDWGC_WASI_EMSCRIPTEN_H

/* wasm-ld's layout: data, then the C stack growing down from __heap_base. */
extern unsigned char __heap_base[];

/* The main C stack's base (the callback's `end`), for bdwgc's initial stack bottom. */
static inline void emscripten_scan_stack(void (*callback)(void *begin, void *end)) {
  callback((void *)0, (void *)__heap_base);
}

/* WASI has no way to see wasm locals: nothing to report (llgo replaces this pusher). */
static inline void emscripten_scan_registers(void (*callback)(void *begin, void *end)) {
  (void)callback;
}

#endif
