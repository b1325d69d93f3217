//llgo:build !llgo.gc_roots
/*
 * gc_refused.c - the collected-memory entry points where no collector can find every root
 * (targets without the `gc-roots` capability: goroutines on threads, whose running stacks no
 * safepoint stops; stack switching, whose continuations keep wasm locals in the engine; see
 * docs/gc.md). A program that uses them fails to link, naming why; one that does not pays nothing
 * (this file is only pulled from the runtime archive by a reference).
 */
#include "llgo_runtime.h"

/* Never defined: the link error names it. */
extern void llgo_gc_is_not_supported_on_this_target_context__needs_the_gc_roots_capability__see_docs_gc_md(void);
#define LLGO_GC_REFUSED() \
  llgo_gc_is_not_supported_on_this_target_context__needs_the_gc_roots_capability__see_docs_gc_md()

void *llgo_gc_alloc(size_t size) {
  (void)size;
  LLGO_GC_REFUSED();
  return NULL;
}

void llgo_gc_collect(void) { LLGO_GC_REFUSED(); }

void llgo_gc_for_each_root(llgo_gc_root_fn fn, void *ctx) {
  (void)fn;
  (void)ctx;
  LLGO_GC_REFUSED();
}

uint64_t llgo_test_gc_collections(void) {
  LLGO_GC_REFUSED();
  return 0;
}

size_t llgo_test_gc_heap_bytes(void) {
  LLGO_GC_REFUSED();
  return 0;
}

int64_t llgo_test_gc_max_pause_ns(void) {
  LLGO_GC_REFUSED();
  return 0;
}
