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
  llgo_go_fn fn;
  void *arg;
  int is_main;
  llgo_defer_frame *defer_top;   /* innermost defer frame on this G's stack */
  llgo_panic_record *panic;      /* active panics, newest first */
};

/* Gives `g` a fresh id and the idle status, with fn(arg) to run. */
void llgo_g_init(llgo_g *g, llgo_go_fn fn, void *arg, int is_main);

/* Moves g from status `from` to `to` with a compare-and-swap. An illegal
 * transition, or g not being in `from`, is fatal (never returns). */
void llgo_casgstatus(llgo_g *g, int from, int to);

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

/* Frees a goroutine's panic chain (used when a G record is reused). */
void llgo_g_clear_panics(llgo_g *g);

/* Runs g->fn(g->arg) under the goroutine's base defer frame (so Goexit and
 * panics always find a frame). Returns 1 if the body ended by Goexit, 0 if it
 * returned; an unrecovered panic never returns. Clears the panic chain. */
int llgo_g_run_body(llgo_g *g);

#endif /* LLGO_GSTATE_H */
