//llgo:build llgo.gc_bdwgc && llgo.gc_roots
/*
 * gc_bdwgc.c - the collector interface (llgo_gc_alloc, llgo_gc_collect) on the
 * Boehm-Demers-Weiser collector, Debian's libgc source built for the target
 * (cmake/LlgoWasmBdwgc.cmake; what is built how: docs/gc-bdwgc.md). Chosen at build time by
 * the tag llgo.gc_bdwgc (a descriptor's "build-tags"); without it the runtime's own
 * collector is used.
 *
 * Roots. bdwgc finds none of ours by itself: wasm has no scannable stack (locals live in
 * the engine, the C stack holds only what was spilled) and goroutine stacks are the
 * runtime's. So:
 *   - on wasm bdwgc is built not to scan any stack or registers (STACK_NOT_SCANNED);
 *     natively its scan of the running stack is cut to its own frames: llgo_gc_collect tells
 *     bdwgc the stack ends at its own frame (GC_set_stackbottom) for the time of the
 *     collection, since the running stack may be a goroutine's (ucontext);
 *   - every other root comes from llgo_gc_for_each_root (every goroutine's stack, the save
 *     areas, runtime-held values), pushed by the GC_set_push_other_roots hook with
 *     GC_push_all_eager (conservative, any alignment);
 *   - static data: on wasm bdwgc's Emscripten configuration registers none, so the module's
 *     data and bss ([__global_base, __data_end) of wasm-ld) are added once; natively bdwgc
 *     registers the executable's and the libraries' data itself.
 * Natively bdwgc is built with its pthread support: the process's main thread is registered
 * by GC_INIT (a constructor), other threads on their first allocation or collection
 * (GC_register_my_thread); bdwgc stops them and scans their stacks itself, through its own
 * pusher, which stays chained before ours. A thread must unregister before it ends
 * (GC_unregister_my_thread): the pthread backend's goroutine threads do not yet
 * (docs/gc-bdwgc.md).
 *
 * When. bdwgc never collects on its own (GC_disable): a collection inside an allocation
 * would run where wasm locals are not yet spilled to linear memory. llgo_gc_alloc asks for
 * one (llgo_gc_collect) when bdwgc's usual trigger holds, bytes allocated since the last
 * collection >= heap size / GC_free_space_divisor, and llgo_gc_collect runs it at the
 * runtime's safepoint, as the runtime's own collector does (llgo_gc_at_safepoint, gc.h): from a
 * goroutine it switches out and the host loop collects, on the host it is left to the next
 * switch. The single-worker scheduler defines llgo_gc_at_safepoint; the pthread backend does
 * not (a weak reference, then NULL): there bdwgc collects in the calling thread and stops the
 * others itself (natively; the selection never takes this file without gc-roots, but
 * tests/gc_bdwgc runs it on every backend).
 */
#include <gc.h>
#include <gc_mark.h>

#include <stddef.h>
#include <stdint.h>

/* The collector interface (runtime/include/llgo_runtime.h on the gc-roots branch). */
typedef void (*llgo_gc_root_fn)(void *lo, void *hi, void *ctx);
void llgo_gc_for_each_root(llgo_gc_root_fn fn, void *ctx);
void *llgo_gc_alloc(size_t size);
void llgo_gc_collect(void);
/* The runtime's safepoint (runtime/src/gc.h), absent on the pthread backend. */
__attribute__((weak)) int llgo_gc_at_safepoint(void (*collect)(void));

/* Below this heap size a collection is never due: a small program never collects. */
#define LLGO_GC_MIN_TRIGGER ((size_t)256 * 1024)

static int initialised;
static GC_push_other_roots_proc bdwgc_push_other_roots;

static void push_range(void *lo, void *hi, void *ctx) {
  (void)ctx;
  if ((uintptr_t)lo < (uintptr_t)hi) {
    GC_push_all_eager(lo, hi);
  }
}

static void GC_CALLBACK push_llgo_roots(void) {
  if (bdwgc_push_other_roots != NULL) {
    bdwgc_push_other_roots();
  }
  llgo_gc_for_each_root(push_range, NULL);
}

#if defined(__wasm__)
extern char __global_base[];
extern char __data_end[];
#endif

/* Before main, on the process's main thread: natively bdwgc takes the thread that initialises
 * it for the main thread, whose stack it scans whole (the pthread backend's goroutines run on
 * other threads). */
__attribute__((constructor)) static void gc_init(void) {
  if (initialised) {
    return;
  }
  initialised = 1;
  /* Before GC_INIT, which may collect once: no collection of its own, and its pusher never
   * bdwgc's default on wasm (Emscripten's emscripten_scan_registers starts an Asyncify unwind,
   * which inside a constructor leaves the module broken). */
  GC_disable();
#if defined(__wasm__)
  bdwgc_push_other_roots = NULL;
#else
  /* With GC_THREADS, bdwgc's default pusher marks the registered threads' stacks: chained. */
  bdwgc_push_other_roots = GC_get_push_other_roots();
#endif
  GC_set_push_other_roots(push_llgo_roots);
  GC_INIT();
#if defined(__wasm__)
  GC_add_roots(__global_base, __data_end);
#elif defined(GC_THREADS)
  GC_allow_register_threads();
#endif
}

#if defined(GC_THREADS)
static void register_this_thread(void) {
  if (!GC_thread_is_registered()) {
    struct GC_stack_base base;
    if (GC_get_stack_base(&base) == GC_SUCCESS) {
      GC_register_my_thread(&base);
    }
  }
}
#else
static void register_this_thread(void) {}
#endif

/* The collection itself: at the safepoint (on the host, no goroutine running), or in the calling
 * thread where there is none. */
static void collect_now(void) {
  /* bdwgc scans the running stack from its own frames up to here only. */
  volatile char here = 0;
  struct GC_stack_base saved, cut = {0};
  void *me = GC_get_my_stackbottom(&saved);
  cut.mem_base = (void *)&here;
  GC_set_stackbottom(me, &cut);
  GC_enable();
  GC_gcollect();
  GC_disable();
  GC_set_stackbottom(me, &saved);
  (void)here;
}

void llgo_gc_collect(void) {
  if (!initialised) {
    gc_init();
  }
  register_this_thread();
  if (llgo_gc_at_safepoint != NULL) {
    llgo_gc_at_safepoint(collect_now);
  } else {
    collect_now();
  }
}

void *llgo_gc_alloc(size_t size) {
  if (!initialised) {
    gc_init();
  }
  register_this_thread();
  size_t heap = GC_get_heap_size();
  size_t due = heap / (size_t)GC_get_free_space_divisor();
  if (due < LLGO_GC_MIN_TRIGGER) {
    due = LLGO_GC_MIN_TRIGGER;
  }
  if (GC_get_bytes_since_gc() >= due) {
    llgo_gc_collect();
  }
  return GC_MALLOC(size);
}
