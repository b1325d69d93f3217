//llgo:build llgo
/*
 * gstate.c - G/M/P ids, the checked goroutine status machine and the live
 * goroutine count (see gstate.h). Shared by every scheduler backend; atomics
 * make it safe for the pthread backend too.
 */
#include "gstate.h"

#include <stdarg.h>
#include <stdio.h>

#define MAIN_CALLED_GOEXIT_BIT ((uint64_t)1 << 63)

static _Atomic uint64_t next_g_id = 1;
static _Atomic uint64_t next_m_id = 1;
static _Atomic int64_t next_p_id = 0;
static _Atomic uint64_t live_state; /* count | MAIN_CALLED_GOEXIT_BIT */

uint64_t llgo_next_g_id(void) { return atomic_fetch_add(&next_g_id, 1); }
uint64_t llgo_next_m_id(void) { return atomic_fetch_add(&next_m_id, 1); }
int64_t llgo_next_p_id(void) { return atomic_fetch_add(&next_p_id, 1); }

void llgo_gstate_reset(void) {
  atomic_store(&next_g_id, 1);
  atomic_store(&next_m_id, 1);
  atomic_store(&next_p_id, 0);
  atomic_store(&live_state, 0);
}

void llgo_live_g_started(void) { atomic_fetch_add(&live_state, 1); }

uint64_t llgo_live_g_exited(int main_called_goexit) {
  uint64_t delta_bit = main_called_goexit ? MAIN_CALLED_GOEXIT_BIT : 0;
  uint64_t before = atomic_fetch_sub(&live_state, 1);
  if (delta_bit != 0) {
    atomic_fetch_or(&live_state, delta_bit);
  }
  return (before & ~MAIN_CALLED_GOEXIT_BIT) - 1;
}

uint64_t llgo_live_g_count(void) {
  return atomic_load(&live_state) & ~MAIN_CALLED_GOEXIT_BIT;
}

int llgo_main_called_goexit(void) {
  return (atomic_load(&live_state) & MAIN_CALLED_GOEXIT_BIT) != 0;
}

const char *llgo_g_status_name(int status) {
  switch (status) {
  case LLGO_G_IDLE:
    return "_Gidle";
  case LLGO_G_RUNNABLE:
    return "_Grunnable";
  case LLGO_G_RUNNING:
    return "_Grunning";
  case LLGO_G_WAITING:
    return "_Gwaiting";
  case LLGO_G_DEAD:
    return "_Gdead";
  default:
    return "unknown";
  }
}

const char *llgo_p_status_name(int status) {
  switch (status) {
  case LLGO_P_IDLE:
    return "_Pidle";
  case LLGO_P_RUNNING:
    return "_Prunning";
  default:
    return "unknown";
  }
}

void llgo_g_init(llgo_g *g, llgo_go_fn fn, void *arg, int is_main) {
  g->id = llgo_next_g_id();
  atomic_store(&g->status, LLGO_G_IDLE);
  g->fn = fn;
  g->arg = arg;
  g->is_main = is_main;
  g->defer_top = NULL;
  g->panic = NULL;
  g->defers = NULL;
}

_Noreturn void llgo_casgstatus_failed(llgo_g *g, int from, int to, int found) {
  if (!llgo_g_transition_is_legal(from, to)) {
    llgo_fatalf("casgstatus: illegal transition %s -> %s (goroutine %llu)",
                llgo_g_status_name(from), llgo_g_status_name(to),
                (unsigned long long)g->id);
  }
  llgo_fatalf("casgstatus: goroutine %llu is %s, expected %s (moving to %s)",
              (unsigned long long)g->id, llgo_g_status_name(found),
              llgo_g_status_name(from), llgo_g_status_name(to));
}

_Noreturn void llgo_fatalf(const char *format, ...) {
  static char message[256]; /* static: fatal may run on a nearly full stack */
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  llgo_fatal(message);
}

uint64_t llgo_test_g_id(const llgo_g *g) { return g == NULL ? 0 : g->id; }

int llgo_test_g_status(const llgo_g *g) { return g == NULL ? -1 : llgo_g_status_of(g); }
