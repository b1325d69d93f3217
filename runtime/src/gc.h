//llgo:build llgo
/*
 * gc.h - runtime-internal: what a collector (gc_marksweep.c, or bdwgc behind the same interface)
 * needs from the runtime beyond llgo_gc_for_each_root (llgo_runtime.h): a safepoint. See
 * docs/gc.md for why a collection runs only there.
 */
#ifndef LLGO_GC_H
#define LLGO_GC_H

#include "llgo_runtime.h"

/* Runs collect() where no goroutine runs and every goroutine's pointers are in linear memory
 * (its stack or copy, its saved Asyncify data): called from a goroutine, the goroutine switches
 * out to the host loop, which runs collect() on the system stack and resumes that goroutine
 * first; it returns 1 once collect() has run. Called on the host (outside every goroutine, e.g.
 * by a timer's function fired while the worker idles), nothing may be scanned yet, since the
 * host's own frames hold values only in WebAssembly locals: the host loop runs collect() after
 * the next goroutine switch, and it returns 0. Implemented by the scheduler (scheduler.c). */
int llgo_gc_at_safepoint(void (*collect)(void));

/* For llgo_gc_for_each_root (gc_roots.c): every goroutine that is not dead (pooled records are
 * excluded): its context's ranges (llgo_wasmcontext_for_each_range) and what its runtime records
 * hold (llgo_g_gc_roots). Only at a safepoint. Implemented by the scheduler. */
void llgo_sched_gc_goroutine_roots(llgo_gc_root_fn fn, void *ctx);

#endif /* LLGO_GC_H */
