//llgo:build llgo.context_pthread
/*
 * blocking_pthread.c - the blocking hooks of the 1:1 pthread backend
 * (blocking.h): goroutines are threads, so the runtime lock is one mutex for
 * every channel, semaphore root, notify list and the timer heap, and a ready
 * that arrives between the unlock and the park is remembered by llgo_park.
 *
 * Timers fire on a timer thread, started with the first timer: it waits on a
 * condition variable until the earliest deadline (CLOCK_MONOTONIC) or until a
 * new earliest timer signals it, and fires what is due. While any timer is
 * pending it counts as a running goroutine for deadlock detection
 * (proc_pthread.c), so goroutines parked on a timer are not a deadlock, and
 * when the last timer has fired and readied nobody, the deadlock is reported.
 *
 * llgo_wait_readable blocks the goroutine's own thread in poll(2) (wasi-libc:
 * poll_oneoff); the thread stays "running" for deadlock detection meanwhile.
 */
#include "blocking.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t timers_wake;
static int timer_thread_started;

void llgo_runtime_lock(void) { pthread_mutex_lock(&runtime_lock); }
void llgo_runtime_unlock(void) { pthread_mutex_unlock(&runtime_lock); }
void llgo_runtime_lock_yield(void) {
  pthread_mutex_unlock(&runtime_lock);
  sched_yield();
  pthread_mutex_lock(&runtime_lock);
}

void llgo_park_unlock(void) {
  pthread_mutex_unlock(&runtime_lock);
  llgo_park();
}

void llgo_timers_poll(void) {}
int llgo_sleep_defers_deadline(void) { return 0; }

void llgo_timers_pending_changed(int pending) {
  if (pending) {
    llgo_pthread_hold_activity();
  } else {
    llgo_pthread_release_activity();
  }
}

static void *timer_thread(void *unused) {
  (void)unused;
  pthread_mutex_lock(&runtime_lock);
  for (;;) {
    int64_t earliest = llgo_timers_earliest();
    if (earliest < 0) {
      pthread_cond_wait(&timers_wake, &runtime_lock);
      continue;
    }
    int64_t now = llgo_nanotime();
    if (earliest > now) {
      struct timespec deadline = {(time_t)(earliest / 1000000000), (long)(earliest % 1000000000)};
      pthread_cond_timedwait(&timers_wake, &runtime_lock, &deadline);
      continue;
    }
    pthread_mutex_unlock(&runtime_lock);
    llgo_timers_run_due(now);
    pthread_mutex_lock(&runtime_lock);
  }
  return NULL;
}

/* Under the lock. */
void llgo_timers_changed(void) {
  if (!timer_thread_started) {
    timer_thread_started = 1;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&timers_wake, &attributes);
    pthread_condattr_destroy(&attributes);
    pthread_attr_t thread_attributes;
    pthread_attr_init(&thread_attributes);
    pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int error = pthread_create(&thread, &thread_attributes, timer_thread, NULL);
    pthread_attr_destroy(&thread_attributes);
    if (error != 0) {
      llgo_fatalf("cannot start the timer thread (pthread_create error %d)", error);
    }
    return;
  }
  pthread_cond_signal(&timers_wake);
}

int llgo_wait_readable(int fd) {
  (void)llgo_current_g_or_die("llgo_wait_readable");
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  struct pollfd poller = {fd, POLLIN, 0};
  int ready;
  while ((ready = poll(&poller, 1, -1)) < 0 && errno == EINTR) {
  }
  if (ready < 0) {
    return -1;
  }
  if (poller.revents & POLLNVAL) {
    errno = EBADF;
    return -1;
  }
  return 0;
}
