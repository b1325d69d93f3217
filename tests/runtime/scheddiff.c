/*
 * scheddiff.c - runs random goroutine programs on the real runtime and prints each one's event
 * trace, for the differential scheduler test (tests/harness/check_scheddiff.py generates the
 * programs from seeds, computes the trace Go's semantics give on a single FIFO worker, and
 * compares; docs/reliability.md).
 *
 *   scheddiff PROGRAM...   runs each program in turn (one process, many programs) and prints
 *                          "<index> <event> <event> ...\n" after each, then
 *                          "allocations <n>\n": the runtime's allocations in the whole run;
 *   scheddiff --fail-allocation N PROGRAM...   the same, with the runtime's N-th allocation
 *                          failing (llgo_test_fail_allocation): the fault-injection test
 *                          (tests/harness/check_alloc_faults.py) runs each N in turn.
 *   scheddiff --gc-every N PROGRAM...   the same programs with their values in collected memory
 *                          and a collection forced at every N-th of their allocations
 *                          (llgo_gc_alloc, llgo_gc_collect; built with SCHEDDIFF_GC, where the
 *                          target has the gc-roots capability): the garbage-collection
 *                          differential (docs/gc.md). The trace must not change.
 *
 * A program is a block of operations, written as letter, id and, for the compound ones, a block
 * in brackets (ids are unique in a program and name the events):
 *   e7        event "e7"
 *   y7        llgo_gosched, then event "y7"
 *   s7[B]     llgo_go: a goroutine that runs B
 *   w7[B]     spawn a goroutine that runs B and signals when it ends (a deferred call, so also
 *   W7[B]     after a panic or Goexit), then wait for the signal (llgo_park unless it came
 *             already; W yields once in between, so the signal may come first); event "w7"
 *   c7[B]     call a function that runs B; event "c7" when it returns normally
 *   d7[B]     defer a call that starts with event "d7" and runs B
 *   r7        llgo_recover; event "r7=<message>" or "r7=nil"
 *   p7        llgo_panic("p7")
 *   x7        llgo_goexit
 *   k7:N      recurse N frames deep, yield at the bottom, event "k7", return
 *   b7        the blocking workout (every kind of allocation channels, select, timers and their
 *             waiters make; see workout()), then event "b7". Its own goroutines all end inside
 *             it, but it parks, so it belongs where no other goroutine of the program is
 *             runnable (the fault-injection workload starts with it); never generated.
 * A function whose block holds a `d` gets a defer frame (llgo_defer_begin/end), as generated
 * code would. Every goroutine's first deferred call recovers whatever reaches it and prints
 * "g<id>=<message>" (id 0: the program's root goroutine), so no panic ends the process and
 * every goroutine ends. Only the public API (llgo_runtime.h) is used.
 *
 * With --gc-every, every operation that can hold a value across a switch holds one in collected
 * memory, each reachable from exactly one root kind of llgo_gc_for_each_root (docs/gc.md), and
 * checks it where Go code would use it: a yield's and a recursion's value in locals (the
 * goroutine's stack or saved Asyncify data), a goroutine's start record (its argument), a
 * deferred call's argument, a panic's message, a wait's result sent by the goroutine's end on an
 * unbuffered channel (a blocked sender's or a woken receiver's value: waiters), an event's value
 * in the program's buffered channel and in a timer's argument (drained and checked after the
 * program, behind one more collection), and a value in static data. A check word is the first
 * word of each value, which a sweep overwrites with its free-list link, so a value freed while
 * reachable shows at once as an event "lost<id>-<what>" the model never has (or a crash). The
 * scheduling is the same: a wait's result channel parks and readies exactly where the signal
 * slot does (its sender parks only after its last event, and emits nothing after), and a
 * forced collection resumes its goroutine before the run queue.
 */
#include "llgo_runtime.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPS = 4096, MAX_SLOTS = 1024, TRACE_BYTES = 1 << 16 };

/* --gc-every N: 0 when off. */
static long gc_every;

typedef struct op {
  char kind;
  int id;
  int depth;             /* k: frames */
  int has_defers;        /* the block this op opens contains a d */
  struct op *body;       /* first op of the block this op opens */
  int body_len;
  char message[16];      /* p: the panic message */
} op;

typedef struct slot {
  int signaled;
  llgo_g *waiter;
} slot;

typedef struct goroutine_start {
  uintptr_t check;       /* START_CHECK (in collected memory with --gc-every) */
  const op *owner;       /* the op that started it; NULL for the root */
  const op *body;
  int body_len;
  int has_defers;
  slot *signal;          /* signalled when the goroutine ends, or NULL */
  llgo_chan *result;     /* --gc-every: a value is sent here when the goroutine ends, or NULL */
} goroutine_start;

#define START_CHECK ((uintptr_t)0x57a27ed1u)

static op ops[MAX_OPS];
static int op_count;
static slot slots[MAX_SLOTS];
static int slot_count;
static goroutine_start starts[MAX_OPS + 1];
static int start_count;
static char trace[TRACE_BYTES];
static size_t trace_len;
static int live_goroutines;
static llgo_g *main_g;
static int main_waiting;

static _Noreturn void die(const char *what, const char *where) {
  fprintf(stderr, "scheddiff: %s at \"%.20s\"\n", what, where);
  exit(64);
}

static void emit(const char *format, int id, const char *text);

/* ---- values in collected memory (--gc-every) ---- */

/* A value: its first word is a check a sweep overwrites (the free-list link), then its id. */
typedef struct gc_value {
  uintptr_t check;
  int id;
  const op *o;           /* a deferred call's op */
} gc_value;

static uintptr_t check_of(char what, int id) {
  return (uintptr_t)0x5ca1ab1eu ^ ((uintptr_t)(unsigned)id << 8) ^ (uintptr_t)(unsigned char)what;
}

static const char *value_name(char what) {
  switch (what) {
    case 'y': return "local";
    case 'k': return "deep-local";
    case 'w': return "wait-result";
    case 'e': return "channel-buffer";
    case 't': return "timer-argument";
    case 'd': return "deferred-argument";
    case 'g': return "static";
    default: return "value";
  }
}

#ifdef SCHEDDIFF_GC
static long gc_allocations;

/* `size` bytes of collected memory; every gc_every-th allocation is followed by a collection
 * (the new block is then only in this frame's locals). */
static void *gc_bytes(size_t size) {
  void *block = llgo_gc_alloc(size);
  if (++gc_allocations % gc_every == 0) {
    llgo_gc_collect();
  }
  return block;
}

static void gc_collect(void) { llgo_gc_collect(); }
#else
/* Where the target has no gc-roots the collector's functions do not link (gc_refused.c). */
static _Noreturn void gc_not_built(void) {
  die("built without SCHEDDIFF_GC (the target has no gc-roots capability)", "--gc-every");
}

static void *gc_bytes(size_t size) {
  (void)size;
  gc_not_built();
}

static void gc_collect(void) { gc_not_built(); }
#endif

static gc_value *gc_new(char what, int id) {
  gc_value *v = gc_bytes(sizeof *v);
  v->check = check_of(what, id);
  v->id = id;
  return v;
}

/* Emits "lost<id>-<what>" unless `v` is still the value made by gc_new(what, id). */
static int gc_check(const gc_value *v, char what, int id) {
  if (v->check == check_of(what, id) && v->id == id) return 1;
  emit("lost%d-%s", id, value_name(what));
  return 0;
}

/* Per program: the events' channel and timers, the waits' channels, a value in static data. */
enum { MAX_TIMERS = MAX_OPS };
static llgo_chan *gc_events;
static llgo_timer *gc_timers[MAX_TIMERS];
static int gc_timer_count, gc_timers_fired, gc_timer_args_lost;
static llgo_chan *gc_wait_chans[MAX_SLOTS];
static int gc_wait_chan_count;
static gc_value *gc_static_value;

static void gc_timer_fired(void *arg, int64_t now) {
  (void)now;
  const gc_value *v = arg;
  gc_timers_fired++;
  if (v->check != check_of('t', v->id)) gc_timer_args_lost++;
}

/* An event's values: one in the program's buffered channel, one a timer's argument. */
static __attribute__((noinline)) void gc_event_values(int id) {
  gc_value *v = gc_new('e', id);
  llgo_chan_send(gc_events, &v);  /* buffered with room: never blocks */
  if (gc_timer_count == MAX_TIMERS) die("too many timers", "");
  llgo_timer *t = llgo_timer_new(gc_timer_fired, gc_new('t', id));
  gc_timers[gc_timer_count++] = t;
  llgo_timer_start(t, llgo_when(1000000), 0);
}

static __attribute__((noinline)) void gc_program_begin(int index) {
  gc_events = llgo_chan_make(sizeof(gc_value *), MAX_OPS);
  gc_timer_count = gc_timers_fired = gc_timer_args_lost = 0;
  gc_wait_chan_count = 0;
  gc_static_value = gc_new('g', index);
}

/* After the program's goroutines ended: one more collection while the events' values are only in
 * the channel's buffer and the timers, then every value checked. */
static __attribute__((noinline)) void gc_program_end(int index) {
  gc_collect();
  while (gc_timers_fired < gc_timer_count) llgo_sleep(1000000);
  if (gc_timer_args_lost > 0) emit("lost%d-%s", gc_timer_args_lost, value_name('t'));
  gc_value *v;
  int ok;
  while (llgo_chan_try_recv(gc_events, &v, &ok)) gc_check(v, 'e', v->id);
  gc_check(gc_static_value, 'g', index);
  gc_static_value = NULL;
  for (int i = 0; i < gc_timer_count; i++) llgo_timer_free(gc_timers[i]);
  for (int i = 0; i < gc_wait_chan_count; i++) llgo_chan_free(gc_wait_chans[i]);
  llgo_chan_free(gc_events);
}

static void emit(const char *format, int id, const char *text) {
  char event[64];
  int n = snprintf(event, sizeof event, format, id, text);
  if (n >= (int)sizeof event) n = (int)sizeof event - 1;
  for (int i = 0; i < n; i++) {
    if (event[i] <= ' ' || event[i] > '~') event[i] = '?';  /* a lost message's bytes */
  }
  if (trace_len + (size_t)n + 2 >= sizeof trace) die("trace too long", "");
  if (trace_len > 0) trace[trace_len++] = ' ';
  memcpy(trace + trace_len, event, (size_t)n);
  trace_len += (size_t)n;
}

/* ---- parsing ---- */

static int parse_int(const char **text) {
  if (!isdigit((unsigned char)**text)) die("expected a number", *text);
  long value = strtol(*text, (char **)text, 10);
  if (value > 100000) die("number too large", *text);
  return (int)value;
}

/* The number of operations in the block starting at `text` (up to its `]` or the end). */
static int count_block(const char *text) {
  int count = 0, depth = 0;
  for (; *text != '\0' && !(depth == 0 && *text == ']'); text++) {
    if (*text == '[') depth++;
    else if (*text == ']') depth--;
    else if (depth == 0 && isalpha((unsigned char)*text)) count++;
  }
  return count;
}

/* Parses one block into `count` ops reserved contiguously in `ops`. */
static op *parse_block(const char **text, int *length) {
  int count = count_block(*text);
  if (op_count + count > MAX_OPS) die("program too large", *text);
  op *block = &ops[op_count];
  op_count += count;
  for (int i = 0; i < count; i++) {
    op *o = &block[i];
    memset(o, 0, sizeof *o);
    o->kind = *(*text)++;
    if (strchr("eysWwcdrpxkb", o->kind) == NULL) die("unknown operation", *text - 1);
    o->id = parse_int(text);
    if (o->kind == 'k') {
      if (*(*text)++ != ':') die("expected ':'", *text - 1);
      o->depth = parse_int(text);
    }
    if (o->kind == 'p') snprintf(o->message, sizeof o->message, "p%d", o->id);
    if (strchr("sWwcd", o->kind) != NULL) {
      if (*(*text)++ != '[') die("expected '['", *text - 1);
      o->body = parse_block(text, &o->body_len);
      if (*(*text)++ != ']') die("expected ']'", *text - 1);
      for (int j = 0; j < o->body_len; j++) o->has_defers |= o->body[j].kind == 'd';
    }
  }
  *length = count;
  return block;
}

static const op *parse_program(const char *text, int *length) {
  op_count = 0;
  const op *program = parse_block(&text, length);
  if (*text != '\0') die("unexpected ']'", text);
  return program;
}

/* ---- running ---- */

static void run_ops(const op *block, int length, llgo_defer_frame *frame);

static void run_function(const op *block, int length, int has_defers) {
  if (!has_defers) {
    run_ops(block, length, NULL);
    return;
  }
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    run_ops(block, length, &frame);
  }
  llgo_defer_end(&frame);
}

static void deferred_call(void *arg) {
  const op *o = arg;
  if (gc_every > 0) {
    const gc_value *v = arg;  /* its argument only held by the deferred call's record */
    if (v->check != check_of('d', v->id)) die("a deferred call's argument was lost", "d");
    o = v->o;
  }
  emit("d%d%s", o->id, "");
  run_function(o->body, o->body_len, o->has_defers);
}

static void signal_slot(slot *s) {
  s->signaled = 1;
  if (s->waiter != NULL) {
    llgo_g *waiter = s->waiter;
    s->waiter = NULL;
    llgo_ready(waiter);
  }
}

static void wait_slot(slot *s) {
  if (!s->signaled) {
    s->waiter = llgo_current_g();
    llgo_park();
  }
}

/* The first deferred call of every goroutine. */
static void finish_goroutine(void *arg) {
  const goroutine_start *start = arg;
  const char *message = llgo_recover();
  int id = start->owner == NULL ? 0 : start->owner->id;
  emit("g%d=%.15s", id, message == NULL ? "nil" : message);
  if (start->result != NULL) {
    /* Parks if its waiter is not receiving yet (a blocked sender's value), else hands the value
     * to the parked waiter (a woken receiver's value); either way after its last event. */
    gc_value *v = gc_new('w', id);
    llgo_chan_send(start->result, &v);
  }
  if (start->signal != NULL) signal_slot(start->signal);
  if (--live_goroutines == 0 && main_waiting) llgo_ready(main_g);
}

static void goroutine_entry(void *arg) {
  const goroutine_start *start = arg;
  if (start->check != START_CHECK) die("a goroutine's start record was lost", "s");
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, finish_goroutine, arg);
    run_ops(start->body, start->body_len, &frame);
  }
  llgo_defer_end(&frame);
}

static void spawn(const op *owner, const op *body, int length, int has_defers, slot *signal,
                  llgo_chan *result) {
  if (start_count > MAX_OPS) die("too many goroutines", "");
  start_count++;
  /* With --gc-every, only the new goroutine's argument holds its start record until it runs. */
  goroutine_start *start = gc_every > 0 ? gc_bytes(sizeof *start) : &starts[start_count - 1];
  *start = (goroutine_start){START_CHECK, owner, body, length, has_defers, signal, result};
  live_goroutines++;
  llgo_go(goroutine_entry, start);
}

static int recurse(int frames, int id) {
  volatile char pad[48];
  pad[0] = (char)frames;
  if (frames <= 0) {
    gc_value *v = gc_every > 0 ? gc_new('k', id) : NULL;
    llgo_gosched();
    if (v != NULL) gc_check(v, 'k', id);
    emit("k%d%s", id, "");
    return pad[0];
  }
  return recurse(frames - 1, id) + pad[0];
}

/* ---- the blocking workout (b) ---- */

enum { WORKOUT_RECEIVERS = 20, WORKOUT_CASES = 70, WORKOUT_TIMERS = 70, WORKOUT_ELEM = 4096 };
static llgo_chan *workout_items, *workout_done;
static int workout_fired;

static void workout_receiver(void *arg) {
  (void)arg;
  long value = -1;
  int ok = llgo_chan_recv2(workout_items, &value);  /* parks: a waiter; woken by the close */
  if (ok || value != 0) die("workout: a receiver woke with a value", "b");
  llgo_chan_send(workout_done, NULL);
}

static void workout_big_sender(void *arg) {
  static unsigned char big[WORKOUT_ELEM];
  memset(big, 7, sizeof big);
  llgo_chan_send(arg, big);  /* parks with a 4 KiB value: a waiter's element buffer */
}

static void workout_tick(void *arg, int64_t now) {
  (void)arg, (void)now;
  workout_fired++;
}

/* A channel (close waking more receivers than close's on-stack batch holds), a blocked sender
 * of a large element, a select over more cases than select's on-stack order holds, more timers
 * than the timer heap's first block holds, and a sleep. */
static void workout(void) {
  workout_items = llgo_chan_make(sizeof(long), 0);
  workout_done = llgo_chan_make(0, WORKOUT_RECEIVERS);
  for (int i = 0; i < WORKOUT_RECEIVERS; i++) llgo_go(workout_receiver, NULL);
  llgo_gosched();  /* FIFO: every receiver runs and parks */
  llgo_chan_close(workout_items);
  for (int i = 0; i < WORKOUT_RECEIVERS; i++) llgo_chan_recv(workout_done, NULL);

  llgo_chan *big = llgo_chan_make(WORKOUT_ELEM, 0);
  llgo_go(workout_big_sender, big);
  llgo_gosched();
  static unsigned char got[WORKOUT_ELEM];
  llgo_chan_recv(big, got);
  if (got[0] != 7 || got[WORKOUT_ELEM - 1] != 7) die("workout: the large value changed", "b");

  llgo_select_case cases[WORKOUT_CASES];
  llgo_chan *ready = llgo_chan_make(sizeof(long), 1), *idle = llgo_chan_make(sizeof(long), 0);
  long one = 1, received = 0;
  llgo_chan_send(ready, &one);
  for (int i = 0; i < WORKOUT_CASES; i++) {
    cases[i] = (llgo_select_case){i == WORKOUT_CASES / 2 ? ready : idle, LLGO_SELECT_RECV, &received};
  }
  cases[0].chan = NULL;  /* a nil channel's case is never ready */
  if (llgo_select(cases, WORKOUT_CASES, 1, NULL) != WORKOUT_CASES / 2 || received != 1) {
    die("workout: select did not choose its one ready case", "b");
  }

  llgo_timer *timers[WORKOUT_TIMERS];
  workout_fired = 0;
  for (int i = 0; i < WORKOUT_TIMERS; i++) {
    timers[i] = llgo_timer_new(workout_tick, NULL);
    llgo_timer_start(timers[i], llgo_when(1000 + i), 0);
  }
  llgo_sleep(2000000);
  if (workout_fired != WORKOUT_TIMERS) die("workout: not every timer fired", "b");
  for (int i = 0; i < WORKOUT_TIMERS; i++) llgo_timer_free(timers[i]);
  llgo_chan_free(workout_items);
  llgo_chan_free(workout_done);
  llgo_chan_free(big);
  llgo_chan_free(ready);
  llgo_chan_free(idle);
}

static void run_ops(const op *block, int length, llgo_defer_frame *frame) {
  for (int i = 0; i < length; i++) {
    const op *o = &block[i];
    switch (o->kind) {
      case 'e':
        if (gc_every > 0) gc_event_values(o->id);
        emit("e%d%s", o->id, "");
        break;
      case 'y': {
        gc_value *v = gc_every > 0 ? gc_new('y', o->id) : NULL;  /* in locals only */
        llgo_gosched();
        if (v != NULL) gc_check(v, 'y', o->id);
        emit("y%d%s", o->id, "");
        break;
      }
      case 's': spawn(o, o->body, o->body_len, o->has_defers, NULL, NULL); break;
      case 'w':
      case 'W': {
        if (slot_count == MAX_SLOTS) die("too many waits", "");
        if (gc_every > 0) {
          llgo_chan *result = llgo_chan_make(sizeof(gc_value *), 0);
          gc_wait_chans[gc_wait_chan_count++] = result;
          spawn(o, o->body, o->body_len, o->has_defers, NULL, result);
          if (o->kind == 'W') llgo_gosched();
          gc_value *v;
          llgo_chan_recv(result, &v);
          gc_check(v, 'w', o->id);
          slot_count++;
        } else {
          slot *s = &slots[slot_count++];
          *s = (slot){0, NULL};
          spawn(o, o->body, o->body_len, o->has_defers, s, NULL);
          if (o->kind == 'W') llgo_gosched();
          wait_slot(s);
        }
        emit("w%d%s", o->id, "");
        break;
      }
      case 'c':
        run_function(o->body, o->body_len, o->has_defers);
        emit("c%d%s", o->id, "");
        break;
      case 'd':
        if (frame == NULL) die("defer outside a function with defers", "");
        if (gc_every > 0) {
          gc_value *v = gc_new('d', o->id);
          v->o = o;
          llgo_defer(frame, deferred_call, v);
        } else {
          llgo_defer(frame, deferred_call, (void *)o);
        }
        break;
      case 'r': {
        const char *message = llgo_recover();
        emit("r%d=%.15s", o->id, message == NULL ? "nil" : message);
        break;
      }
      case 'p':
        if (gc_every > 0) {
          /* The message in collected memory from its first byte: a sweep overwrites its text. */
          char *message = gc_bytes(sizeof o->message);
          memcpy(message, o->message, sizeof o->message);
          llgo_panic(message);
        }
        llgo_panic(o->message);
      case 'x': llgo_goexit();
      case 'k': recurse(o->depth, o->id); break;
      case 'b': workout(); emit("b%d%s", o->id, ""); break;
    }
  }
}

static int scheddiff_main(int argc, char **argv) {
  main_g = llgo_current_g();
  for (int index = 1; index < argc; index++) {
    int length;
    const op *program = parse_program(argv[index], &length);
    slot_count = 0;
    start_count = 0;
    trace_len = 0;
    int has_defers = 0;
    for (int i = 0; i < length; i++) has_defers |= program[i].kind == 'd';
    if (gc_every > 0) gc_program_begin(index - 1);
    spawn(NULL, program, length, has_defers, NULL, NULL);
    while (live_goroutines > 0) {
      main_waiting = 1;
      llgo_park();
      main_waiting = 0;
    }
    if (gc_every > 0) gc_program_end(index - 1);
    printf("%d %.*s\n", index - 1, (int)trace_len, trace);
    fflush(stdout);
  }
  printf("allocations %ld\n", llgo_test_allocation_count());
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--gc-every") == 0) {
    gc_every = atol(argv[2]);
    if (gc_every <= 0) die("--gc-every needs a positive count", argv[2]);
    argv[2] = argv[0];
    return llgo_run_main(scheddiff_main, argc - 2, argv + 2);
  }
  if (argc >= 3 && strcmp(argv[1], "--fail-allocation") == 0) {
    llgo_test_fail_allocation(atol(argv[2]));  /* counted from here: llgo_run_main's own too */
    argv[2] = argv[0];
    return llgo_run_main(scheddiff_main, argc - 2, argv + 2);
  }
  return llgo_run_main(scheddiff_main, argc, argv);
}
