//llgo:build llgo
/*
 * gstate.h - runtime-internal: the goroutine record shared by every scheduler
 * backend, its checked status machine, G/M/P ids, the live-goroutine count
 * and the fatal-error entry points. Not part of the public API.
 *
 * Status transitions allowed (anything else is fatal):
 *   idle -> runnable           the goroutine was created
 *   runnable -> running        the scheduler picked it
 *   running -> runnable        Gosched
 *   running -> waiting         park
 *   waiting -> runnable        ready
 *   running -> dead            it returned or called Goexit
 *   dead -> idle               its record is reused
 */
#ifndef LLGO_GSTATE_H
#define LLGO_GSTATE_H

#include "llgo_runtime.h"

#include <stdatomic.h>
#include <stdint.h>

/* One active panic (or Goexit) of a goroutine; newest first. */
typedef struct llgo_panic_record {
  const char *message;
  int recovered; /* llgo_recover returned it */
  int aborted;   /* a newer panic reached a frame running deferred calls for it */
  int goexit;    /* this record is a Goexit, not a panic */
  struct llgo_panic_record *link;
} llgo_panic_record;

/* The backend-neutral part of a goroutine. Backends embed it first in their
 * own record (so a pointer to one is a pointer to the other). */
struct llgo_g {
  uint64_t id;
  _Atomic int status;
  int is_main; /* beside status: no padding after either on 64-bit targets */
  llgo_go_fn fn;
  void *arg;
  llgo_defer_frame *defer_top;   /* innermost defer frame on this G's stack */
  llgo_panic_record *panic;      /* active panics, newest first */
  llgo_defer_record *defers;     /* every deferred call not yet run, in heap records (gc roots) */
};

/* Gives `g` a fresh id and the idle status, with fn(arg) to run. */
void llgo_g_init(llgo_g *g, llgo_go_fn fn, void *arg, int is_main);

/* Whether `from -> to` is one of the transitions above. */
static inline int llgo_g_transition_is_legal(int from, int to) {
  switch (from) {
  case LLGO_G_IDLE:
    return to == LLGO_G_RUNNABLE;
  case LLGO_G_RUNNABLE:
    return to == LLGO_G_RUNNING;
  case LLGO_G_RUNNING:
    return to == LLGO_G_RUNNABLE || to == LLGO_G_WAITING || to == LLGO_G_DEAD;
  case LLGO_G_WAITING:
    return to == LLGO_G_RUNNABLE;
  case LLGO_G_DEAD:
    return to == LLGO_G_IDLE;
  default:
    return 0;
  }
}

/* Reports a failed llgo_casgstatus (`found` is the status g had). Never returns. */
_Noreturn void llgo_casgstatus_failed(llgo_g *g, int from, int to, int found);

/* Moves g from status `from` to `to` with a compare-and-swap. An illegal
 * transition, or g not being in `from`, is fatal (never returns). Inline: with
 * constant statuses the legality check folds away and a switch pays one CAS. */
static inline void llgo_casgstatus(llgo_g *g, int from, int to) {
  int found = from;
  if (!llgo_g_transition_is_legal(from, to) ||
      !atomic_compare_exchange_strong(&g->status, &found, to)) {
    llgo_casgstatus_failed(g, from, to, found);
  }
}

/* The status of g (an llgo_g_status). */
static inline int llgo_g_status_of(const llgo_g *g) {
  return atomic_load(&((llgo_g *)g)->status);
}

/* Ids: G and M count from 1, P from 0. */
uint64_t llgo_next_g_id(void);
uint64_t llgo_next_m_id(void);
int64_t llgo_next_p_id(void);

/* Live goroutines (created and not dead), plus a bit recording that main
 * called Goexit. */
void llgo_live_g_started(void);
/* Returns the live count after the exit. */
uint64_t llgo_live_g_exited(int main_called_goexit);
uint64_t llgo_live_g_count(void);
int llgo_main_called_goexit(void);
/* Forget all of the above (a new llgo_run_main starts from scratch). */
void llgo_gstate_reset(void);

/* Deadlock messages (exact texts, as Go prints them after "fatal error: "). */
#define LLGO_DEADLOCK_ASLEEP "all goroutines are asleep - deadlock!"
#define LLGO_DEADLOCK_MAIN_GOEXIT "no goroutines (main called runtime.Goexit) - deadlock!"

/* llgo_fatal with printf formatting (message truncated to 256 bytes). */
_Noreturn void llgo_fatalf(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Unrecovered panic: prints the panic chain ("panic: <msg>" lines, oldest
 * first, as Go does) to stderr and exits 2. Implemented in panic.c. */
_Noreturn void llgo_die_of_panic(const llgo_panic_record *panic);

/* The program values a goroutine's runtime records hold, for llgo_gc_for_each_root: its
 * function's argument, its deferred calls' arguments, its panic values (panic.c). */
void llgo_g_gc_roots(llgo_g *g, llgo_gc_root_fn fn, void *ctx);

/* Frees a goroutine's panic chain (used when a G record is reused). */
void llgo_g_clear_panics(llgo_g *g);

/* Ends the running goroutine `g` after a Goexit ran all its deferred calls
 * (its panic chain is already cleared). Implemented by each scheduler backend:
 * the single worker abandons its context, the pthread backend ends its thread.
 * A goroutine's function is called without any runtime frame around it, so
 * this is how a Goexit leaves the frames in between. */
_Noreturn void llgo_goroutine_exit(llgo_g *g);

#endif /* LLGO_GSTATE_H */
