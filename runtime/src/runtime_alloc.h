//llgo:build llgo
/*
 * runtime_alloc.h - runtime-internal: every allocation the runtime makes goes through
 * llgo_runtime_alloc (goroutine records and storage, deferred calls, panic records, channels,
 * timers, select's poll order, waiters), so that a
 * test can make the N-th one fail (llgo_test_fail_allocation in llgo_runtime.h) and check that
 * each caller ends in its documented fatal error ("out of memory allocating ...").
 */
#ifndef LLGO_RUNTIME_ALLOC_H
#define LLGO_RUNTIME_ALLOC_H

#include <stddef.h>

/* `size` bytes aligned to 16 from the libc heap, or NULL (the caller reports it). */
void *llgo_runtime_alloc(size_t size);
/* `size` zeroed bytes (calloc's alignment), counted like llgo_runtime_alloc. calloc skips
 * zeroing memory fresh from the system, which a memset would write at once (on wasi-threads,
 * writing into memory another thread has just grown trapped now and then). */
void *llgo_runtime_calloc(size_t size);
void llgo_runtime_free(void *memory);

#endif
