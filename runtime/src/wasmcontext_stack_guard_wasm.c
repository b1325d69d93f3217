//llgo:build wasm
/*
 * wasmcontext_stack_guard_wasm.c - the WebAssembly side of the stack guard
 * (wasmcontext_stack_guard.h): the system stack's bounds and its guard, set before main; the
 * emergency stack llgo_stack_overflow_trap (wasmcontext_stack_wasm.S) moves to; and the report,
 * which runs there and ends the program. The report prints with stdio and exits through libc
 * (Emscripten: emscripten_force_exit, so the host sees the status), as the runtime's fatal
 * errors do; the trap is on the descriptors' asyncify-removelist, so neither is ever unwound.
 */
#include "wasmcontext_stack_guard.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#include <emscripten/stack.h>
#else
extern unsigned char __stack_low[];
extern unsigned char __stack_high[];
#endif

#define OVERFLOW_STACK_BYTES (64 * 1024)

_Thread_local size_t llgo_wasmcontext_running_stack_size;

static _Alignas(16) unsigned char overflow_stack[OVERFLOW_STACK_BYTES];
/* Read by the trap, which has no frame to compute it in. */
unsigned char *const llgo_wasmcontext_overflow_stack_top = overflow_stack + OVERFLOW_STACK_BYTES;
/* The first thread to overflow takes the emergency stack (wasi-threads). */
int llgo_wasmcontext_overflow_taken;

const unsigned char *llgo_wasmcontext_system_stack_limit(void) {
#ifdef __EMSCRIPTEN__
  return (const unsigned char *)emscripten_stack_get_end();
#else
  return __stack_low;
#endif
}

size_t llgo_wasmcontext_system_stack_size(void) {
#ifdef __EMSCRIPTEN__
  return emscripten_stack_get_base() - emscripten_stack_get_end();
#else
  return (size_t)(__stack_high - __stack_low);
#endif
}

/* The system stack is guarded from before main: package initialisers run there too. */
__attribute__((constructor)) static void guard_system_stack(void) {
  llgo_wasmcontext_running_stack_size = llgo_wasmcontext_system_stack_size();
  llgo_wasmcontext_set_stack_guard(llgo_wasmcontext_guard_for(llgo_wasmcontext_system_stack_limit()));
}

void llgo_stack_guard_thread_stack(unsigned char *low, size_t size) {
  llgo_wasmcontext_running_stack_size = size - LLGO_STACK_FLOOR_BYTES;
  llgo_wasmcontext_set_stack_guard(llgo_wasmcontext_guard_for(low + LLGO_STACK_FLOOR_BYTES));
}

_Noreturn void llgo_stack_overflow_exit(size_t limit_bytes) {
  fflush(stdout);
  fprintf(stderr, "runtime: goroutine stack exceeds %zu-byte limit\nfatal error: stack overflow\n", limit_bytes);
  fflush(stderr);
#ifdef __EMSCRIPTEN__
  emscripten_force_exit(2);
#endif
  exit(2);
}

/* Called by the trap, on the emergency stack, with the stack pointer the check refused. */
_Noreturn void llgo_wasmcontext_stack_overflow(void *refused_stack_pointer) {
  (void)refused_stack_pointer;
  llgo_stack_overflow_exit(llgo_wasmcontext_running_stack_size);
}
