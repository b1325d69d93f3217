//llgo:build llgo
/*
 * panic.c - defer frames, panic, recover and Goexit for every scheduler
 * backend, built on setjmp/longjmp within one goroutine's stack.
 *
 * A panic (or Goexit) pushes a record on the goroutine's panic chain and
 * longjmps to the innermost defer frame, whose llgo_defer_end runs the
 * deferred calls (newest first) and then either returns normally (nothing
 * active, or a deferred call recovered) or longjmps on to the next outer frame.
 * There is no base frame under a goroutine's function (the scheduler calls it
 * directly): past the outermost frame, a Goexit ends the goroutine
 * (llgo_goroutine_exit) and an unrecovered panic prints "panic: <msg>" and
 * exits 2. All state lives in the G, so
 * a goroutine may yield inside a deferred call; a longjmp never leaves the
 * current goroutine's stack (frames are checked against their owner).
 *
 * Limit (documented in llgo_runtime.h): recover returns the active panic from
 * anywhere inside a deferred call's dynamic extent, not only when called
 * directly by the deferred function as Go requires.
 */
#include "gstate.h"

#include <stdio.h>
#include <stdlib.h>

struct llgo_defer_record {
  void (*fn)(void *arg);
  void *arg;
  llgo_defer_record *next;
};

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
  g->defer_top = frame;
}

void llgo_defer(llgo_defer_frame *frame, void (*fn)(void *arg), void *arg) {
  llgo_g *g = running_g_or_die("llgo_defer");
  check_innermost(g, frame, "llgo_defer");
  llgo_defer_record *record = malloc(sizeof *record);
  if (record == NULL) {
    llgo_fatal("out of memory allocating a deferred call");
  }
  record->fn = fn;
  record->arg = arg;
  record->next = frame->records;
  frame->records = record;
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

/* Continues an active panic/Goexit at the innermost frame of `g`. */
static _Noreturn void unwind_to_innermost_frame(llgo_g *g) {
  if (g->defer_top == NULL) {
    finish_unwinding(g);
  }
  longjmp(g->defer_top->jump, 1);
}

static void start_unwinding(llgo_g *g, const char *message, int goexit) {
  llgo_panic_record *record = malloc(sizeof *record);
  if (record == NULL) {
    llgo_fatal("out of memory allocating a panic record");
  }
  record->message = message;
  record->recovered = 0;
  record->aborted = 0;
  record->goexit = goexit;
  record->link = g->panic;
  if (g->panic != NULL && !g->panic->goexit) {
    g->panic->aborted = 1; /* this panic replaces it */
  }
  g->panic = record;
}

_Noreturn void llgo_panic(const char *msg) {
  llgo_g *g = llgo_current_g();
  llgo_panic_record outside = {msg == NULL ? "nil" : msg, 0, 0, 0, NULL};
  if (g == NULL) {
    llgo_die_of_panic(&outside);
  }
  start_unwinding(g, outside.message, 0);
  unwind_to_innermost_frame(g);
}

_Noreturn void llgo_goexit(void) {
  llgo_g *g = running_g_or_die("llgo_goexit");
  start_unwinding(g, NULL, 1);
  unwind_to_innermost_frame(g);
}

const char *llgo_recover(void) {
  llgo_g *g = llgo_current_g();
  if (g == NULL || g->panic == NULL || g->panic->goexit || g->panic->recovered) {
    return NULL;
  }
  g->panic->recovered = 1;
  return g->panic->message;
}

/* After a recovery: drop the recovered panic and the ones it replaced. A
 * Goexit underneath stays active (Go resumes the Goexit). */
static void drop_recovered_panics(llgo_g *g) {
  while (g->panic != NULL && !g->panic->goexit) {
    llgo_panic_record *done = g->panic;
    g->panic = done->link;
    free(done);
  }
}

void llgo_defer_end(llgo_defer_frame *frame) {
  llgo_g *g = running_g_or_die("llgo_defer_end");
  check_innermost(g, frame, "llgo_defer_end");
  /* A deferred call that panics longjmps back into this frame and we come here
   * again: each record is unlinked before its call, so none runs twice. */
  llgo_defer_record *record;
  while ((record = frame->records) != NULL) {
    frame->records = record->next;
    void (*fn)(void *) = record->fn;
    void *arg = record->arg;
    free(record);
    fn(arg);
  }
  g->defer_top = frame->outer;
  if (g->panic != NULL && g->panic->recovered) {
    drop_recovered_panics(g);
  }
  if (g->panic == NULL) {
    return; /* normal return, or recovered: the function returns normally */
  }
  unwind_to_innermost_frame(g);
}

void llgo_g_clear_panics(llgo_g *g) {
  while (g->panic != NULL) {
    llgo_panic_record *done = g->panic;
    g->panic = done->link;
    free(done);
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
  exit(2);
}
