//llgo:build llgo.gc_roots
/*
 * gc_roots.c - llgo_gc_for_each_root (llgo_runtime.h): every place a pointer into the collected
 * heap may live while no goroutine runs (docs/gc.md, "Roots"):
 *   - static data: wasm [__global_base, __data_end) (the linker's symbols: .data and .bss);
 *     native [__data_start, _end) of the executable (glibc's symbols; shared libraries' data is
 *     not scanned: the program's values live in its own image);
 *   - every goroutine that is not dead: its context's ranges (wasmcontext.h: the used stack or its
 *     copy, its saved Asyncify data) and its records (function argument, deferred calls' arguments,
 *     panic values) - scheduler.c, panic.c;
 *   - what the runtime holds for the program: channel buffers (chan.c), waiter buffers - a blocked
 *     sender's value is copied there before it parks, a woken receiver's value waits there until it
 *     runs (waiter.c) -, timer and AfterFunc arguments (timer.c), host callbacks' arguments
 *     (idle_wait_*.c).
 * The host's own stack (the scheduler loop, C main) is not a root: the program runs in goroutines,
 * and a collection runs only between switches (gc.h).
 */
#include "blocking.h"
#include "chan.h"
#include "gc.h"

#ifdef __wasm__
extern char __global_base[];
extern char __data_end[];
#define STATIC_DATA_START __global_base
#define STATIC_DATA_END __data_end
#else
extern char __data_start[];
extern char _end[];
#define STATIC_DATA_START __data_start
#define STATIC_DATA_END _end
#endif

void llgo_gc_for_each_root(llgo_gc_root_fn fn, void *ctx) {
  fn(STATIC_DATA_START, STATIC_DATA_END, ctx);
  llgo_sched_gc_goroutine_roots(fn, ctx);
  llgo_chan_gc_roots(fn, ctx);
  llgo_waiter_gc_roots(fn, ctx);
  llgo_timer_gc_roots(fn, ctx);
  llgo_platform_gc_roots(fn, ctx);
}
