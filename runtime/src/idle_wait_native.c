//llgo:build !wasm && llgo.context_ucontext
/*
 * idle_wait_native.c - the single worker's idle wait natively (the ucontext
 * backend): clock_nanosleep on the monotonic clock, relative, resumed after a
 * signal interrupts it; or, while goroutines wait in llgo_wait_readable, one
 * poll(2) over their fds with the time to the next timer (rounded up to whole
 * milliseconds, poll's unit: the caller re-checks the clock).
 * Limits: fds are polled only when no goroutine is runnable.
 */
#define _POSIX_C_SOURCE 200809L
#include "blocking.h"
#include "gstate.h"
#include "runtime_alloc.h"
#include "scheduler.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define MILLISECOND ((int64_t)1000000)

/* A goroutine waiting in llgo_wait_readable (heap memory: see idle_wait_wasip1.c). */
typedef struct fd_wait {
  int fd;
  int error;
  llgo_g *g;
  struct fd_wait *next;
} fd_wait;

static fd_wait *fd_waits;
static size_t fd_wait_count;
static struct pollfd *pollfds;
static fd_wait **polled;
static size_t poll_capacity;

static void sleep_for(int64_t ns) {
  struct timespec remaining = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &remaining, &remaining) == EINTR) {
  }
}

llgo_idle_wait_result llgo_platform_idle_wait(int64_t ns) {
  if (fd_waits == NULL) {
    if (ns < 0) {
      return LLGO_IDLE_NOTHING_PENDING;
    }
    if (ns > 0) {
      sleep_for(ns);
    }
    return LLGO_IDLE_WAITED;
  }
  if (poll_capacity < fd_wait_count) {
    free(pollfds);
    free(polled);
    pollfds = malloc(fd_wait_count * sizeof *pollfds);
    polled = malloc(fd_wait_count * sizeof *polled);
    if (pollfds == NULL || polled == NULL) {
      llgo_fatalf("out of memory polling %zu fds", fd_wait_count);
    }
    poll_capacity = fd_wait_count;
  }
  size_t count = 0;
  for (fd_wait *w = fd_waits; w != NULL; w = w->next) {
    pollfds[count].fd = w->fd;
    pollfds[count].events = POLLIN;
    pollfds[count].revents = 0;
    polled[count++] = w;
  }
  int timeout_ms = -1;
  if (ns >= 0) {
    int64_t ms = (ns + MILLISECOND - 1) / MILLISECOND;
    timeout_ms = ms > INT32_MAX ? INT32_MAX : (int)ms;
  }
  int ready = poll(pollfds, (nfds_t)count, timeout_ms);
  if (ready < 0) {
    if (errno == EINTR) {
      return LLGO_IDLE_WAITED;
    }
    llgo_fatalf("poll (%zu fds) failed with errno %d", count, errno);
  }
  for (size_t i = 0; i < count && ready > 0; i++) {
    if (pollfds[i].revents == 0) {
      continue;
    }
    fd_wait *w = polled[i];
    w->error = pollfds[i].revents & POLLNVAL ? EBADF : 0;
    fd_wait **link = &fd_waits;
    while (*link != w) {
      link = &(*link)->next;
    }
    *link = w->next;
    fd_wait_count--;
    llgo_ready(w->g);
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
  w->error = 0;
  w->g = g;
  /* FIFO: append, so poll order (and wake order) follows the order of waits. */
  w->next = NULL;
  fd_wait **link = &fd_waits;
  while (*link != NULL) {
    link = &(*link)->next;
  }
  *link = w;
  fd_wait_count++;
  llgo_idle_hook_needed();
  llgo_park(); /* the idle wait readies it */
  int error = w->error;
  llgo_runtime_free(w);
  if (error != 0) {
    errno = error;
    return -1;
  }
  return 0;
}

/* The host holds no program values here. */
void llgo_platform_gc_roots(llgo_gc_root_fn fn, void *ctx) {
  (void)fn;
  (void)ctx;
}
