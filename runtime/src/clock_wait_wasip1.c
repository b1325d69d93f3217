//llgo:build wasip1 && !llgo.context_pthread
/*
 * clock_wait_wasip1.c - the single worker's idle wait on WASI preview 1: one
 * poll_oneoff with a RELATIVE monotonic clock subscription.
 *
 * Never an absolute one: Node's WASI (uvwasi) hangs on absolute clock
 * subscriptions (it subtracts the realtime clock in unsigned arithmetic and
 * ignores the clock id); tests/runners/run-wasi.mjs refuses them so a
 * regression fails loudly. The subscription and event live in static memory:
 * Node's WASI rejects buffers at or above 2 GiB, where goroutine stacks may be.
 *
 * Hosts differ in precision: Node's WASI truncates the timeout to whole
 * milliseconds (anything under 1 ms returns at once) and may return early. The
 * first wait asks for the exact time; once a wait has returned early, later waits
 * round up to whole milliseconds, so the worker sleeps instead of polling its way
 * through the last fraction of a millisecond. The caller re-checks the clock
 * either way (a wait may always end early).
 */
#include "gstate.h"

#include <stdint.h>
#include <wasi/api.h>

void llgo_clock_wait(int64_t ns);

#define MILLISECOND ((int64_t)1000000)

static __wasi_subscription_t subscription;
static __wasi_event_t event;
static int host_wakes_early;

void llgo_clock_wait(int64_t ns) {
  if (ns <= 0) {
    return;
  }
  if (host_wakes_early) {
    ns = (ns + MILLISECOND - 1) / MILLISECOND * MILLISECOND;
  }
  int64_t start = llgo_nanotime();
  subscription.userdata = 0;
  subscription.u.tag = __WASI_EVENTTYPE_CLOCK;
  subscription.u.u.clock.id = __WASI_CLOCKID_MONOTONIC;
  subscription.u.u.clock.timeout = (__wasi_timestamp_t)ns;
  subscription.u.u.clock.precision = 0;
  subscription.u.u.clock.flags = 0; /* relative */
  __wasi_size_t events = 0;
  __wasi_errno_t error = __wasi_poll_oneoff(&subscription, &event, 1, &events);
  if (error != __WASI_ERRNO_SUCCESS) {
    /* Carrying on would spin: the worker could never wait. */
    llgo_fatalf("poll_oneoff (a %lld ns clock) failed with WASI errno %d", (long long)ns, (int)error);
  }
  if (llgo_nanotime() - start < ns) {
    host_wakes_early = 1;
  }
}
