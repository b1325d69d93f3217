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
 */
#include "llgo_runtime.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPS = 4096, MAX_SLOTS = 1024, TRACE_BYTES = 1 << 16 };

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
  const op *owner;       /* the op that started it; NULL for the root */
  const op *body;
  int body_len;
  int has_defers;
  slot *signal;          /* signalled when the goroutine ends, or NULL */
} goroutine_start;

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

static void emit(const char *format, int id, const char *text) {
  char event[64];
  int n = snprintf(event, sizeof event, format, id, text);
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
  emit("g%d=%s", start->owner == NULL ? 0 : start->owner->id, message == NULL ? "nil" : message);
  if (start->signal != NULL) signal_slot(start->signal);
  if (--live_goroutines == 0 && main_waiting) llgo_ready(main_g);
}

static void goroutine_entry(void *arg) {
  const goroutine_start *start = arg;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, finish_goroutine, arg);
    run_ops(start->body, start->body_len, &frame);
  }
  llgo_defer_end(&frame);
}

static void spawn(const op *owner, const op *body, int length, int has_defers, slot *signal) {
  if (start_count > MAX_OPS) die("too many goroutines", "");
  goroutine_start *start = &starts[start_count++];
  *start = (goroutine_start){owner, body, length, has_defers, signal};
  live_goroutines++;
  llgo_go(goroutine_entry, start);
}

static int recurse(int frames, int id) {
  volatile char pad[48];
  pad[0] = (char)frames;
  if (frames <= 0) {
    llgo_gosched();
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
      case 'e': emit("e%d%s", o->id, ""); break;
      case 'y': llgo_gosched(); emit("y%d%s", o->id, ""); break;
      case 's': spawn(o, o->body, o->body_len, o->has_defers, NULL); break;
      case 'w':
      case 'W': {
        if (slot_count == MAX_SLOTS) die("too many waits", "");
        slot *s = &slots[slot_count++];
        *s = (slot){0, NULL};
        spawn(o, o->body, o->body_len, o->has_defers, s);
        if (o->kind == 'W') llgo_gosched();
        wait_slot(s);
        emit("w%d%s", o->id, "");
        break;
      }
      case 'c':
        run_function(o->body, o->body_len, o->has_defers);
        emit("c%d%s", o->id, "");
        break;
      case 'd':
        if (frame == NULL) die("defer outside a function with defers", "");
        llgo_defer(frame, deferred_call, (void *)o);
        break;
      case 'r': {
        const char *message = llgo_recover();
        emit("r%d=%s", o->id, message == NULL ? "nil" : message);
        break;
      }
      case 'p': llgo_panic(o->message);
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
    spawn(NULL, program, length, has_defers, NULL);
    while (live_goroutines > 0) {
      main_waiting = 1;
      llgo_park();
      main_waiting = 0;
    }
    printf("%d %.*s\n", index - 1, (int)trace_len, trace);
    fflush(stdout);
  }
  printf("allocations %ld\n", llgo_test_allocation_count());
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--fail-allocation") == 0) {
    llgo_test_fail_allocation(atol(argv[2]));  /* counted from here: llgo_run_main's own too */
    argv[2] = argv[0];
    return llgo_run_main(scheddiff_main, argc - 2, argv + 2);
  }
  return llgo_run_main(scheddiff_main, argc, argv);
}
