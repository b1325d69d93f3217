//llgo:build llgo.gc_roots && !llgo.gc_bdwgc
/*
 * gc_marksweep.c - the fallback collector behind llgo_gc_alloc/llgo_gc_collect: a small
 * conservative, non-moving mark-sweep of our own, to prove the roots and safepoints (docs/gc.md).
 * The preferred collector is bdwgc; a build that selects it (build tag llgo.gc_bdwgc) leaves this
 * file out and implements the same functions (llgo_gc_alloc, llgo_gc_collect and the three
 * test figures) over llgo_gc_for_each_root and llgo_gc_at_safepoint.
 *
 * Heap: small objects (up to 2 KiB) in spans of 64 KiB, one size class each, with a state byte
 * per object (free, allocated, marked) and a free list; a larger object is a span of its own.
 * Spans come from the C heap and are kept in an array sorted by address, so a word is tested
 * for "points into an object" by a binary search (interior pointers count). A span with no live
 * object after a sweep goes back to the C heap, so the heap shrinks after a burst of garbage.
 * Mark: every root range (llgo_gc_for_each_root) and every marked object is scanned word by word
 * (pointer-aligned), through an explicit mark stack. Pacing: a collection runs when the bytes
 * allocated since the last one exceed max(4 MiB, the bytes live after it) (Go's GOGC=100).
 * Limits: one thread (the single worker); no finalizers; conservative (an integer that looks like
 * a pointer keeps its object).
 */
#include "gc.h"
#include "gstate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SPAN_BYTES ((size_t)64 * 1024)
#define SMALL_MAX ((size_t)2048)
#define GRANULE ((size_t)16)
#define MIN_TRIGGER ((size_t)4 * 1024 * 1024)

enum { OBJECT_FREE = 0, OBJECT_ALLOCATED = 1, OBJECT_MARKED = 2 };

typedef struct span {
  uintptr_t base, end;     /* the objects: [base, end) */
  size_t object_size;      /* bytes per object (a large span: its one object, rounded) */
  size_t objects;
  void *free_list;         /* free objects, linked through their first word */
  size_t free_count;
  struct span *next_available; /* in its class's list of spans with free objects */
  int class_index;         /* -1: a large object */
  int listed;              /* in its class's available list */
  unsigned char *state;    /* one byte per object */
} span;

/* Size classes: multiples of 16 up to 256, then four steps per doubling up to 2 KiB. */
static const size_t class_sizes[] = {16,  32,  48,  64,  80,  96,  112,  128,  144,  160,  176,  192,
                                     208, 224, 240, 256, 320, 384, 448,  512,  640,  768,  896,  1024,
                                     1280, 1536, 1792, 2048};
#define CLASS_COUNT (sizeof class_sizes / sizeof class_sizes[0])

static struct {
  span **spans; /* sorted by base */
  size_t span_count, span_capacity;
  uintptr_t lowest, highest; /* bounds of every span, a quick test before the search */
  span *available[CLASS_COUNT];
  unsigned char class_of_granules[SMALL_MAX / GRANULE + 1];
  int ready;
  size_t heap_bytes;        /* spans' object bytes held from the C heap */
  size_t allocated_since;   /* bytes allocated since the last collection */
  size_t trigger;           /* collect when allocated_since passes it */
  uint64_t collections;
  int64_t max_pause_ns;     /* the longest collect() */
  void **mark_stack;
  size_t mark_count, mark_capacity;
} heap;

static void die(const char *what) { llgo_fatalf("out of memory allocating %s", what); }

static void set_up(void) {
  size_t c = 0;
  for (size_t g = 0; g <= SMALL_MAX / GRANULE; g++) {
    while (class_sizes[c] < g * GRANULE) {
      c++;
    }
    heap.class_of_granules[g] = (unsigned char)c;
  }
  heap.trigger = MIN_TRIGGER;
  heap.ready = 1;
}

/* ---- the span table ---- */

static size_t span_index_after(uintptr_t address) {
  size_t low = 0, high = heap.span_count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (heap.spans[middle]->base <= address) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low; /* the first span whose base is above address */
}

static void insert_span(span *s) {
  if (heap.span_count == heap.span_capacity) {
    size_t capacity = heap.span_capacity == 0 ? 64 : heap.span_capacity * 2;
    span **grown = realloc(heap.spans, capacity * sizeof *grown);
    if (grown == NULL) {
      die("the collector's span table");
    }
    heap.spans = grown;
    heap.span_capacity = capacity;
  }
  size_t at = span_index_after(s->base);
  memmove(&heap.spans[at + 1], &heap.spans[at], (heap.span_count - at) * sizeof *heap.spans);
  heap.spans[at] = s;
  heap.span_count++;
  if (heap.span_count == 1 || s->base < heap.lowest) {
    heap.lowest = s->base;
  }
  if (s->end > heap.highest) {
    heap.highest = s->end;
  }
  heap.heap_bytes += s->end - s->base;
}

static span *new_span(size_t object_size, size_t objects, int class_index) {
  span *s = malloc(sizeof *s + objects);
  void *memory = aligned_alloc(GRANULE, object_size * objects);
  if (s == NULL || memory == NULL) {
    die("collected memory");
  }
  memset(s, 0, sizeof *s);
  s->state = (unsigned char *)(s + 1);
  memset(s->state, OBJECT_FREE, objects);
  s->base = (uintptr_t)memory;
  s->end = s->base + object_size * objects;
  s->object_size = object_size;
  s->objects = objects;
  s->class_index = class_index;
  insert_span(s);
  return s;
}

/* ---- allocation ---- */

static void collect(void);

static void make_available(span *s) {
  if (!s->listed && s->class_index >= 0) {
    s->listed = 1;
    s->next_available = heap.available[s->class_index];
    heap.available[s->class_index] = s;
  }
}

static void *alloc_small(size_t size) {
  int c = heap.class_of_granules[(size + GRANULE - 1) / GRANULE];
  span *s = heap.available[c];
  while (s != NULL && s->free_list == NULL) {
    s->listed = 0;
    s = heap.available[c] = s->next_available;
  }
  if (s == NULL) {
    size_t object_size = class_sizes[c];
    size_t objects = SPAN_BYTES / object_size;
    s = new_span(object_size, objects, c);
    for (size_t i = objects; i-- > 0;) {
      void **object = (void **)(s->base + i * object_size);
      *object = s->free_list;
      s->free_list = object;
    }
    s->free_count = objects;
    make_available(s);
  }
  void **object = s->free_list;
  s->free_list = *object;
  s->free_count--;
  s->state[((uintptr_t)object - s->base) / s->object_size] = OBJECT_ALLOCATED;
  memset(object, 0, s->object_size);
  return object;
}

void *llgo_gc_alloc(size_t size) {
  if (!heap.ready) {
    set_up();
  }
  if (size == 0) {
    size = 1;
  }
  if (size > SIZE_MAX / 2) {
    die("collected memory");
  }
  size_t rounded = (size + GRANULE - 1) & ~(GRANULE - 1);
  if (heap.allocated_since + rounded > heap.trigger) {
    llgo_gc_at_safepoint(collect); /* on the host: deferred, the heap grows meanwhile */
  }
  heap.allocated_since += rounded;
  if (rounded <= SMALL_MAX) {
    return alloc_small(rounded);
  }
  span *s = new_span(rounded, 1, -1);
  s->state[0] = OBJECT_ALLOCATED;
  void *object = (void *)s->base;
  memset(object, 0, rounded);
  return object;
}

void llgo_gc_collect(void) {
  if (!heap.ready) {
    set_up();
  }
  llgo_gc_at_safepoint(collect);
}

uint64_t llgo_test_gc_collections(void) { return heap.collections; }
size_t llgo_test_gc_heap_bytes(void) { return heap.heap_bytes; }
int64_t llgo_test_gc_max_pause_ns(void) { return heap.max_pause_ns; }

/* ---- mark ---- */

static void push(void *object) {
  if (heap.mark_count == heap.mark_capacity) {
    size_t capacity = heap.mark_capacity == 0 ? 4096 : heap.mark_capacity * 2;
    void **grown = realloc(heap.mark_stack, capacity * sizeof *grown);
    if (grown == NULL) {
      die("the collector's mark stack");
    }
    heap.mark_stack = grown;
    heap.mark_capacity = capacity;
  }
  heap.mark_stack[heap.mark_count++] = object;
}

/* The span the last marked word was in: objects allocated together (a list's nodes) point into
 * the same span, which saves the search for most words. Reset by every sweep. */
static span *last_span;

/* Marks the object `word` points into, if any. */
static inline void mark_word(uintptr_t word) {
  if (word < heap.lowest || word >= heap.highest) {
    return;
  }
  span *s = last_span;
  if (s == NULL || word < s->base || word >= s->end) {
    size_t after = span_index_after(word);
    if (after == 0) {
      return;
    }
    s = heap.spans[after - 1];
    if (word >= s->end) {
      return;
    }
    last_span = s;
  }
  size_t index = (word - s->base) / s->object_size;
  if (s->state[index] == OBJECT_ALLOCATED) {
    s->state[index] = OBJECT_MARKED;
    push((void *)(s->base + index * s->object_size));
  }
}

/* Where a pointer may start: Asyncify saves locals back to back at their own sizes, so on wasm64
 * an i64 (a pointer) saved after an i32 is only 4-byte aligned. */
#if defined(__wasm64__)
#define SCAN_STEP ((uintptr_t)4)
#else
#define SCAN_STEP ((uintptr_t)sizeof(void *))
#endif

/* Scans [lo, hi) for pointers. Memory the sanitizer poisons (stack redzones, globals' padding) is
 * read on purpose: a conservative scan reads everything. */
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("address")))
#endif
static void scan_range(void *lo, void *hi, void *unused) {
  (void)unused;
  uintptr_t from = ((uintptr_t)lo + SCAN_STEP - 1) & ~(SCAN_STEP - 1);
  for (uintptr_t at = from; at + sizeof(void *) <= (uintptr_t)hi; at += SCAN_STEP) {
    uintptr_t word;
    memcpy(&word, (const void *)at, sizeof word);
    mark_word(word);
  }
}

static void drain(void) {
  while (heap.mark_count > 0) {
    void *object = heap.mark_stack[--heap.mark_count];
    span *s = last_span;
    if ((uintptr_t)object < s->base || (uintptr_t)object >= s->end) {
      s = heap.spans[span_index_after((uintptr_t)object) - 1];
    }
    scan_range(object, (char *)object + s->object_size, NULL);
  }
}

static void mark_root_range(void *lo, void *hi, void *unused) {
  scan_range(lo, hi, unused);
  drain();
}

/* ---- sweep ---- */

static void free_span(span *s) {
  heap.heap_bytes -= s->end - s->base;
  free((void *)s->base);
  free(s);
}

/* Frees every allocated object that is not marked, rebuilds the free lists, returns empty spans. */
static size_t sweep(void) {
  size_t live = 0;
  last_span = NULL;
  for (size_t c = 0; c < CLASS_COUNT; c++) {
    heap.available[c] = NULL;
  }
  size_t kept = 0;
  heap.lowest = UINTPTR_MAX;
  heap.highest = 0;
  for (size_t i = 0; i < heap.span_count; i++) {
    span *s = heap.spans[i];
    size_t live_objects = 0;
    s->free_list = NULL;
    s->free_count = 0;
    s->listed = 0;
    for (size_t j = s->objects; j-- > 0;) {
      if (s->state[j] == OBJECT_MARKED) {
        s->state[j] = OBJECT_ALLOCATED;
        live_objects++;
      } else {
        s->state[j] = OBJECT_FREE;
        void **object = (void **)(s->base + j * s->object_size);
        *object = s->free_list;
        s->free_list = object;
        s->free_count++;
      }
    }
    if (live_objects == 0) {
      free_span(s);
      continue;
    }
    live += live_objects * s->object_size;
    if (s->free_count > 0) {
      make_available(s);
    }
    heap.spans[kept++] = s;
    if (s->base < heap.lowest) {
      heap.lowest = s->base;
    }
    if (s->end > heap.highest) {
      heap.highest = s->end;
    }
  }
  heap.span_count = kept;
  return live;
}

/* Runs at a safepoint (gc.h): no goroutine runs. */
static void collect(void) {
  int64_t started = llgo_nanotime();
  llgo_gc_for_each_root(mark_root_range, NULL);
  size_t live = sweep();
  int64_t pause = llgo_nanotime() - started;
  if (pause > heap.max_pause_ns) {
    heap.max_pause_ns = pause;
  }
  heap.collections++;
  heap.allocated_since = 0;
  heap.trigger = live > MIN_TRIGGER ? live : MIN_TRIGGER;
}
