//llgo:build wasip1 && !llgo.context_pthread
/*
 * idle_wait_wasip1.c - the single worker's idle wait on WASI preview 1: ONE
 * poll_oneoff with the fd_read subscriptions of the goroutines parked in
 * llgo_wait_readable and a RELATIVE monotonic clock subscription for the next
 * timer (none if no timer is pending). Each fd event readies its goroutine.
 *
 * Never an absolute clock: Node's WASI (uvwasi) hangs on absolute clock
 * subscriptions (it subtracts the realtime clock in unsigned arithmetic and
 * ignores the clock id); tests/runners/run-wasi.mjs refuses them so a
 * regression fails loudly. Subscriptions and events live in static memory:
 * Node's WASI rejects buffers at or above 2 GiB, where goroutine stacks and the
 * heap may be. So one poll holds at most MAX_FD_WAITS fd subscriptions; further
 * waiters are polled once the first ones are served (FIFO).
 *
 * Hosts differ in precision: Node's WASI works in whole milliseconds (a wait
 * under 1 ms ends after 0.1-1.3 ms, whatever was asked) and may return early. The
 * first wait asks for the exact time; once a wait has returned early, later waits
 * round up to whole milliseconds, so the worker sleeps instead of polling its way
 * through the last fraction of a millisecond. A wait shorter than SPIN_LIMIT (and
 * no fd to watch) is a busy wait on the clock instead, on every host: at most
 * 100 us of CPU rather than a poll that costs more than the wait (Node: asked for
 * 0.6 to 46 us, poll_oneoff took 0.2-1.3 ms, measured 2026-12-02; 94 such polls
 * took 31 ms of bench/whole_programs.c's timers, 2026-12-05), as Go's scheduler
 * spins briefly before it parks a thread (Go's wasip1 port never polls the clock
 * at all: it spins). The caller re-checks the clock either way (a wait may always
 * end early).
 * Limits: fds are polled only when no goroutine is runnable (a worker that never
 * idles never looks at them; Go's netpoller is also checked by sysmon).
 *
 * Under the jspi context (P1 on a JavaScript host) the worker must not block the
 * JavaScript thread: a waiting poll_oneoff would stall the event loop, and with it
 * every promise the glue resolves. There the poll keeps its shape (the fd_read
 * subscriptions and a relative clock, in one call) but its clock is 0 (1 ms while
 * fds are watched: FD_LOOK_NS), so it only looks; then, unless an fd was ready, the
 * host loop suspends on a timer in the
 * event loop (llgo_jspi_idle, runtime/wasi/jspi_glue.mjs: setTimeout) for the
 * next timer's time, at most FD_RECHECK_MS while a goroutine waits for an fd.
 */
#include "blocking.h"
#include "gstate.h"
#include "runtime_alloc.h"
#include "scheduler.h"

#include <errno.h>
#include <stdlib.h>

#include <stdint.h>
#include <wasi/api.h>

#define MILLISECOND ((int64_t)1000000)
#define SPIN_LIMIT ((int64_t)100000) /* 100 us */
#define MAX_FD_WAITS 63
#define CLOCK_USERDATA ((__wasi_userdata_t)MAX_FD_WAITS)

#ifdef LLGO_CONTEXT_JSPI
#define FD_RECHECK_MS 10.0
/* Node's WASI (uvwasi) misses an fd that is already readable when the poll's clock is 0 (the
 * clock's event ends the poll first), so with fd waiters the look lasts up to 1 ms. */
#define FD_LOOK_NS MILLISECOND
/* Suspends the host loop for `ms` milliseconds (a timer in the event loop). */
__attribute__((import_module("llgo_jspi"), import_name("llgo_jspi_idle"))) void llgo_jspi_idle(double ms);
#endif

/* A goroutine waiting in llgo_wait_readable: heap memory (the idle wait reads
 * it while the goroutine is parked, its stack possibly someone else's). */
typedef struct fd_wait {
  int fd;
  __wasi_errno_t error;
  llgo_g *g;
  struct fd_wait *next;
} fd_wait;

static fd_wait *fd_waits_head;
static fd_wait *fd_waits_tail;

static __wasi_subscription_t subscriptions[MAX_FD_WAITS + 1];
static __wasi_event_t events[MAX_FD_WAITS + 1];
static fd_wait *polled[MAX_FD_WAITS];
static int host_wakes_early;

static void remove_fd_wait(fd_wait *w) {
  fd_wait **link = &fd_waits_head;
  fd_wait *previous = NULL;
  while (*link != w) {
    previous = *link;
    link = &(*link)->next;
  }
  *link = w->next;
  if (fd_waits_tail == w) {
    fd_waits_tail = previous;
  }
}

llgo_idle_wait_result llgo_platform_idle_wait(int64_t ns) {
  if (ns < 0 && fd_waits_head == NULL) {
    return LLGO_IDLE_NOTHING_PENDING;
  }
  if (fd_waits_head == NULL && ns >= 0 && ns < SPIN_LIMIT) {
    int64_t deadline = llgo_nanotime() + ns;
    while (llgo_nanotime() < deadline) {
    }
    return LLGO_IDLE_WAITED;
  }
  __wasi_size_t count = 0;
  for (fd_wait *w = fd_waits_head; w != NULL && count < MAX_FD_WAITS; w = w->next) {
    __wasi_subscription_t *s = &subscriptions[count];
    s->userdata = count;
    s->u.tag = __WASI_EVENTTYPE_FD_READ;
    s->u.u.fd_read.file_descriptor = (__wasi_fd_t)w->fd;
    polled[count++] = w;
  }
#ifdef LLGO_CONTEXT_JSPI
  int64_t wait_ns = ns; /* what llgo_jspi_idle waits, below */
  if (ns >= 0 && host_wakes_early) {
    wait_ns = (ns + MILLISECOND - 1) / MILLISECOND * MILLISECOND;
  }
  ns = fd_waits_head != NULL ? FD_LOOK_NS : 0; /* the poll only looks */
#endif
  if (ns >= 0) {
    if (host_wakes_early) {
      ns = (ns + MILLISECOND - 1) / MILLISECOND * MILLISECOND;
    }
    __wasi_subscription_t *s = &subscriptions[count++];
    s->userdata = CLOCK_USERDATA;
    s->u.tag = __WASI_EVENTTYPE_CLOCK;
    s->u.u.clock.id = __WASI_CLOCKID_MONOTONIC;
    s->u.u.clock.timeout = (__wasi_timestamp_t)ns;
    s->u.u.clock.precision = 0;
    s->u.u.clock.flags = 0; /* relative */
  }
  int64_t start = llgo_nanotime();
  __wasi_size_t fired = 0;
  __wasi_errno_t error = __wasi_poll_oneoff(subscriptions, events, count, &fired);
  if (error != __WASI_ERRNO_SUCCESS) {
    /* Carrying on would spin: the worker could never wait. */
    llgo_fatalf("poll_oneoff (%u subscriptions, a %lld ns clock) failed with WASI errno %d",
                (unsigned)count, (long long)ns, (int)error);
  }
  int fd_ready = 0;
  for (__wasi_size_t i = 0; i < fired; i++) {
    __wasi_event_t *e = &events[i];
    if (e->userdata == CLOCK_USERDATA || e->userdata >= MAX_FD_WAITS) {
      continue;
    }
    fd_wait *w = polled[e->userdata];
    if (w == NULL) {
      continue; /* two events for one subscription */
    }
    polled[e->userdata] = NULL;
    w->error = e->error;
    remove_fd_wait(w);
    llgo_ready(w->g);
    fd_ready = 1;
  }
#ifdef LLGO_CONTEXT_JSPI
  ns = wait_ns;
  if (!fd_ready) {
    double ms = ns < 0 ? FD_RECHECK_MS : (double)ns / (double)MILLISECOND;
    if (fd_waits_head != NULL && ms > FD_RECHECK_MS) {
      ms = FD_RECHECK_MS;
    }
    llgo_jspi_idle(ms);
  }
#endif
  if (!fd_ready && ns >= 0 && llgo_nanotime() - start < ns) {
    host_wakes_early = 1;
  }
  return LLGO_IDLE_WAITED;
}

int llgo_platform_leave_to_host(void) {
  llgo_fatal("the idle hook returned to the host, but llgo_run_main cannot wait for host "
             "events (the host must call llgo_sched_run itself)");
}

int llgo_wait_readable(int fd) {
  llgo_g *g = llgo_current_g_or_die("llgo_wait_readable");
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  fd_wait *w = llgo_runtime_alloc(sizeof *w);
  if (w == NULL) {
    llgo_fatal("out of memory allocating an fd waiter");
  }
  w->fd = fd;
  w->error = __WASI_ERRNO_SUCCESS;
  w->g = g;
  w->next = NULL;
  if (fd_waits_tail == NULL) {
    fd_waits_head = w;
  } else {
    fd_waits_tail->next = w;
  }
  fd_waits_tail = w;
  llgo_idle_hook_needed();
  llgo_park(); /* the idle wait readies it */
  __wasi_errno_t error = w->error;
  llgo_runtime_free(w);
  if (error != __WASI_ERRNO_SUCCESS) {
    errno = error; /* wasi-libc's errno values are WASI's */
    return -1;
  }
  return 0;
}

/* The host holds no program values here. */
void llgo_platform_gc_roots(llgo_gc_root_fn fn, void *ctx) {
  (void)fn;
  (void)ctx;
}
