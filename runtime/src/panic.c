//llgo:build llgo
/*
 * panic.c - defer frames, panic, recover and Goexit for every scheduler
 * backend, built on setjmp/longjmp within one goroutine's stack, with Go's
 * semantics (Go 1.19's gopanic/gorecover/printpanics are the model).
 *
 * A panic (or Goexit) pushes a record on the goroutine's panic chain and
 * longjmps to the innermost defer frame. A frame's llgo_defer_end runs its
 * deferred calls (newest first) for the panic that reached it (frame->panic),
 * or for a normal return (NULL). Three rules follow Go:
 *   - a panic that reaches a frame whose deferred calls were running for an
 *     older panic aborts that older one (it stays on the chain and is printed);
 *   - recover stops the newest panic only from a deferred call that the frame
 *     runs for that panic (not from one run by a normal return), and the
 *     recovery takes effect when that deferred call returns: the recovered panic
 *     and the aborted ones under it are dropped, and the frame's function returns
 *     normally (its remaining deferred calls run as for a return), unless an
 *     aborted Goexit is under them: then the Goexit resumes from this frame;
 *   - panics started before the frame existed stay active: a deferred call that
 *     runs a helper which panics and recovers does not stop the outer panic.
 * There is no base frame under a goroutine's function (the scheduler calls it
 * directly): past the outermost frame, a Goexit ends the goroutine
 * (llgo_goroutine_exit) and an unrecovered panic prints Go's "panic: <msg>"
 * chain and exits 2. All state lives in the G and its frames, so a goroutine may
 * yield inside a deferred call; a longjmp never leaves the current goroutine's
 * stack (frames are checked).
 *
 * Limit (documented in llgo_runtime.h): recover also stops the panic when it is
 * called from a function that the deferred call calls, not only directly by the
 * deferred function as Go requires: C code gives the runtime no sound way to see
 * which function called it (no frame or return addresses on wasm).
 */
#include "exit_process.h"
#include "gstate.h"
#include "runtime_alloc.h"

#include <stdio.h>
#include <stdlib.h>

struct llgo_defer_record {
  void (*fn)(void *arg);
  void *arg;
  llgo_defer_record *next;
  llgo_defer_record *g_prev, *g_next; /* in the goroutine's list of pending records (g->defers) */
};

/* Every pending record is in its goroutine's list, so a collector finds the arguments. */
static void link_record(llgo_g *g, llgo_defer_record *record) {
  record->g_prev = NULL;
  record->g_next = g->defers;
  if (g->defers != NULL) {
    g->defers->g_prev = record;
  }
  g->defers = record;
}

static void unlink_record(llgo_g *g, llgo_defer_record *record) {
  if (record->g_prev != NULL) {
    record->g_prev->g_next = record->g_next;
  } else {
    g->defers = record->g_next;
  }
  if (record->g_next != NULL) {
    record->g_next->g_prev = record->g_prev;
  }
}

void llgo_g_gc_roots(llgo_g *g, llgo_gc_root_fn fn, void *ctx) {
  fn(&g->arg, &g->arg + 1, ctx);
  for (llgo_defer_record *record = g->defers; record != NULL; record = record->g_next) {
    fn(&record->arg, &record->arg + 1, ctx);
  }
  for (llgo_panic_record *panic = g->panic; panic != NULL; panic = panic->link) {
    fn((void *)&panic->message, (void *)(&panic->message + 1), ctx);
  }
}

static llgo_g *running_g_or_die(const char *operation) {
  llgo_g *g = llgo_current_g();
  if (g == NULL) {
    llgo_fatalf("%s called outside a goroutine (run the program through llgo_run_main)",
                operation);
  }
  return g;
}

static void check_innermost(llgo_g *g, llgo_defer_frame *frame, const char *operation) {
  if (frame->owner != g || g->defer_top != frame) {
    llgo_fatalf("%s: the frame is not the innermost defer frame of goroutine %llu "
                "(frames must nest with calls and stay in their goroutine)",
                operation, (unsigned long long)g->id);
  }
}

void llgo_defer_enter(llgo_defer_frame *frame) {
  llgo_g *g = running_g_or_die("llgo_defer_begin");
  frame->outer = g->defer_top;
  frame->records = NULL;
  frame->owner = g;
  frame->panic = NULL;
  frame->calling = 0;
  g->defer_top = frame;
}

void llgo_defer(llgo_defer_frame *frame, void (*fn)(void *arg), void *arg) {
  llgo_g *g = running_g_or_die("llgo_defer");
  check_innermost(g, frame, "llgo_defer");
  llgo_defer_record *record = llgo_runtime_alloc(sizeof *record);
  if (record == NULL) {
    llgo_fatal("out of memory allocating a deferred call");
  }
  record->fn = fn;
  record->arg = arg;
  record->next = frame->records;
  frame->records = record;
  link_record(g, record);
}

/* What is left once no defer frame remains: a Goexit ends the goroutine, a
 * panic ends the program. */
static _Noreturn void finish_unwinding(llgo_g *g) {
  if (!g->panic->goexit) {
    llgo_die_of_panic(g->panic);
  }
  llgo_g_clear_panics(g);
  llgo_goroutine_exit(g);
}

/* Continues the newest panic (or Goexit) of `g` at `frame` (NULL: past the
 * outermost one), whose deferred calls now run for it. If they were running for
 * an older panic, one of them panicked: the older panic is aborted (Go: a panic
 * reaching a started deferred call). */
static _Noreturn void unwind_to_frame(llgo_g *g, llgo_defer_frame *frame) {
  if (frame->panic != NULL && frame->panic != g->panic) {
    frame->panic->aborted = 1;
  }
  frame->panic = g->panic;
  longjmp(frame->jump, 1);
}

static _Noreturn void unwind_to(llgo_g *g, llgo_defer_frame *frame) {
  if (frame == NULL) {
    finish_unwinding(g);
  }
  unwind_to_frame(g, frame);
}

static void start_unwinding(llgo_g *g, const char *message, int goexit) {
  llgo_panic_record *record = llgo_runtime_alloc(sizeof *record);
  if (record == NULL) {
    llgo_fatal("out of memory allocating a panic record");
  }
  record->message = message;
  record->recovered = 0;
  record->aborted = 0;
  record->goexit = goexit;
  record->link = g->panic;
  g->panic = record;
}

_Noreturn void llgo_panic(const char *msg) {
  llgo_g *g = llgo_current_g();
  llgo_panic_record outside = {msg == NULL ? "nil" : msg, 0, 0, 0, NULL};
  if (g == NULL) {
    llgo_die_of_panic(&outside);
  }
  start_unwinding(g, outside.message, 0);
  /* unwind_to without its Goexit branch: past the outermost frame a panic (the
   * newest record is this one, not a Goexit) ends the program. So llgo_panic
   * never reaches a switch point (the longjmp leaves its frame before any
   * deferred call runs) and Asyncify instruments neither it nor, for its sake,
   * its callers (llgo_chan_make, llgo_chan_close, the closed-channel sends). */
  if (g->defer_top == NULL) {
    llgo_die_of_panic(g->panic);
  }
  unwind_to_frame(g, g->defer_top);
}

_Noreturn void llgo_goexit(void) {
  llgo_g *g = running_g_or_die("llgo_goexit");
  start_unwinding(g, NULL, 1);
  unwind_to(g, g->defer_top);
}

const char *llgo_recover(void) {
  llgo_g *g = llgo_current_g();
  if (g == NULL || g->panic == NULL) {
    return NULL;
  }
  /* The innermost frame that is inside one of its deferred calls: that call
   * must be running for the newest panic. */
  llgo_defer_frame *frame = g->defer_top;
  while (frame != NULL && !frame->calling) {
    frame = frame->outer;
  }
  llgo_panic_record *panic = g->panic;
  if (frame == NULL || frame->panic != panic || panic->goexit || panic->recovered) {
    return NULL;
  }
  panic->recovered = 1;
  return panic->message;
}

static void pop_panic(llgo_g *g) {
  llgo_panic_record *done = g->panic;
  g->panic = done->link;
  llgo_runtime_free(done);
}

/* A deferred call of `frame` recovered frame->panic (the newest) and returned:
 * drop it and the panics it aborted. The function then returns normally, or, if
 * an aborted Goexit is underneath, the Goexit resumes here (as Go does). */
static void recover_at(llgo_g *g, llgo_defer_frame *frame) {
  pop_panic(g);
  while (g->panic != NULL && g->panic->aborted && !g->panic->goexit) {
    pop_panic(g);
  }
  if (g->panic != NULL && g->panic->goexit && g->panic->aborted) {
    g->panic->aborted = 0;
    frame->panic = g->panic;
  } else {
    frame->panic = NULL;
  }
}

void llgo_defer_end(llgo_defer_frame *frame) {
  llgo_g *g = running_g_or_die("llgo_defer_end");
  check_innermost(g, frame, "llgo_defer_end");
  /* A deferred call that panics longjmps back into this frame and we come here
   * again: each record is unlinked before its call, so none runs twice. */
  frame->calling = 0;
  llgo_defer_record *record;
  while ((record = frame->records) != NULL) {
    frame->records = record->next;
    void (*fn)(void *) = record->fn;
    void *arg = record->arg;
    unlink_record(g, record);
    llgo_runtime_free(record);
    frame->calling = 1;
    fn(arg);
    frame->calling = 0;
    if (frame->panic != NULL && frame->panic->recovered) {
      recover_at(g, frame);
    }
  }
  g->defer_top = frame->outer;
  if (frame->panic == NULL) {
    return; /* a normal return, or recovered: the function returns normally */
  }
  unwind_to(g, frame->outer);
}

void llgo_g_clear_panics(llgo_g *g) {
  while (g->panic != NULL) {
    llgo_panic_record *done = g->panic;
    g->panic = done->link;
    llgo_runtime_free(done);
  }
}

static void print_panic_chain(const llgo_panic_record *panic) {
  if (panic->link != NULL) {
    print_panic_chain(panic->link);
    if (!panic->link->goexit) {
      fputs("\t", stderr);
    }
  }
  if (panic->goexit) {
    return;
  }
  fprintf(stderr, "panic: %s%s\n", panic->message, panic->recovered ? " [recovered]" : "");
}

_Noreturn void llgo_die_of_panic(const llgo_panic_record *panic) {
  fflush(stdout);
  print_panic_chain(panic);
  llgo_g *g = llgo_current_g();
  if (g != NULL) {
    fprintf(stderr, "\ngoroutine %llu [running]\n", (unsigned long long)g->id);
  }
  fflush(stderr);
  llgo_exit_process(2);
}
