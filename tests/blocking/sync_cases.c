/* sync_cases.c - semaphores, notify lists and package sync's Mutex (with
 * starvation mode), RWMutex, WaitGroup, Once and Cond (Go 1.19), each parking only
 * the waiting goroutine, with Go's fatal errors and panics on misuse. */
#include "blocking_test.h"

#include <stdint.h>

/* ---- Mutex ---- */

static llgo_mutex mutex; /* shared: static memory, never a goroutine's local */
static int inside, most_inside;
static long counter;
static llgo_waitgroup group;

static void contender(void *unused) {
  (void)unused;
  for (int i = 0; i < 1000; i++) {
    llgo_mutex_lock(&mutex);
    if (++inside > most_inside) most_inside = inside;
    llgo_gosched(); /* others try to lock meanwhile */
    inside--;
    counter++;
    llgo_mutex_unlock(&mutex);
  }
  llgo_waitgroup_done(&group);
}

static int mutex_exclusion(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_waitgroup_add(&group, 10);
  for (int i = 0; i < 10; i++) llgo_go(contender, NULL);
  llgo_waitgroup_wait(&group);
  printf("counter %ld, at most %d inside\n", counter, most_inside);
  return 0;
}

static volatile int round_number;
static int waiter_round;
static llgo_chan *starvation_done;

static void barging_holder(void *unused) {
  (void)unused;
  for (round_number = 1; round_number <= 10; round_number++) {
    llgo_mutex_lock(&mutex);
    llgo_gosched(); /* the waiter queues */
    int64_t until = llgo_nanotime() + 2 * MS;
    while (llgo_nanotime() < until) {
    }
    llgo_mutex_unlock(&mutex);
  }
  llgo_chan_send(starvation_done, NULL);
}

static void starving_waiter(void *unused) {
  (void)unused;
  llgo_mutex_lock(&mutex);
  waiter_round = round_number;
  llgo_mutex_unlock(&mutex);
  llgo_chan_send(starvation_done, NULL);
}

/* A holder that unlocks and relocks at once would keep the mutex forever; a
 * waiter that waited over 1 ms switches it to starvation mode, and the next
 * Unlock hands the mutex to it. */
static int mutex_starvation_mode(int argc, char **argv) {
  (void)argc, (void)argv;
  starvation_done = llgo_chan_make(0, 2);
  llgo_go(barging_holder, NULL);
  llgo_go(starving_waiter, NULL);
  llgo_chan_recv(starvation_done, NULL);
  llgo_chan_recv(starvation_done, NULL);
  printf("the waiter got the mutex in round %d of 10\n", waiter_round);
  return 0;
}

static int mutex_try_lock(int argc, char **argv) {
  (void)argc, (void)argv;
  int first = llgo_mutex_try_lock(&mutex);
  int second = llgo_mutex_try_lock(&mutex);
  llgo_mutex_unlock(&mutex);
  int third = llgo_mutex_try_lock(&mutex);
  printf("try_lock: %d %d %d\n", first, second, third);
  return 0;
}

static int mutex_unlock_of_unlocked(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_mutex_lock(&mutex);
  llgo_mutex_unlock(&mutex);
  llgo_mutex_unlock(&mutex);
  return 0;
}

static int mutex_deadlock(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_mutex_lock(&mutex);
  printf("locking again\n");
  fflush(stdout);
  llgo_mutex_lock(&mutex);
  return 0;
}

/* ---- RWMutex ---- */

static llgo_rwmutex rw;
static llgo_chan *step, *finished;
static _Atomic(llgo_g *) writer_g, late_reader_g;

static void second_reader(void *unused) {
  (void)unused;
  llgo_rwmutex_rlock(&rw);
  event("second reader in");
  llgo_chan_send(step, NULL);
  llgo_chan_recv(step, NULL); /* hold it until main says */
  event("second reader out");
  llgo_rwmutex_runlock(&rw);
}

static void writer(void *unused) {
  (void)unused;
  writer_g = llgo_current_g();
  llgo_rwmutex_lock(&rw);
  event("writer in");
  llgo_rwmutex_unlock(&rw);
  llgo_chan_send(finished, NULL);
}

static void late_reader(void *unused) {
  (void)unused;
  late_reader_g = llgo_current_g();
  llgo_rwmutex_rlock(&rw);
  event("late reader in");
  llgo_rwmutex_runlock(&rw);
  llgo_chan_send(finished, NULL);
}

/* Readers share; a writer waits for them and keeps new readers out until it is done. */
static int rwmutex_readers_and_writer(int argc, char **argv) {
  (void)argc, (void)argv;
  step = llgo_chan_make(0, 0);
  finished = llgo_chan_make(0, 2);
  llgo_rwmutex_rlock(&rw);
  event("first reader in");
  llgo_go(second_reader, NULL);
  llgo_chan_recv(step, NULL);
  llgo_go(writer, NULL);
  wait_parked(&writer_g);
  llgo_go(late_reader, NULL);
  wait_parked(&late_reader_g);
  event("writer and late reader wait");
  EXPECT(!llgo_rwmutex_try_rlock(&rw) && !llgo_rwmutex_try_lock(&rw), "a writer is pending");
  event("first reader out");
  llgo_rwmutex_runlock(&rw);
  llgo_chan_send(step, NULL);
  llgo_chan_recv(finished, NULL);
  llgo_chan_recv(finished, NULL);
  EXPECT(llgo_rwmutex_try_lock(&rw), "free again");
  llgo_rwmutex_unlock(&rw);
  printf("%s\n", events());
  return 0;
}

static int rwmutex_runlock_of_unlocked(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_rwmutex_runlock(&rw);
  return 0;
}

static int rwmutex_unlock_of_unlocked(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_rwmutex_unlock(&rw);
  return 0;
}

/* ---- WaitGroup ---- */

static long finished_workers;

static void worker(void *unused) {
  (void)unused;
  llgo_gosched();
  __atomic_add_fetch(&finished_workers, 1, __ATOMIC_SEQ_CST);
  llgo_waitgroup_done(&group);
}

static void second_waiter(void *unused) {
  (void)unused;
  llgo_waitgroup_wait(&group);
  llgo_chan_send(finished, NULL);
}

static int waitgroup_waits_for_all(int argc, char **argv) {
  (void)argc, (void)argv;
  finished = llgo_chan_make(0, 1);
  llgo_waitgroup_add(&group, 50);
  llgo_go(second_waiter, NULL);
  for (int i = 0; i < 50; i++) llgo_go(worker, NULL);
  llgo_waitgroup_wait(&group);
  long seen = finished_workers;
  llgo_chan_recv(finished, NULL);
  llgo_waitgroup_wait(&group); /* a zero counter: returns at once */
  printf("both waiters returned after %ld of 50 workers\n", seen);
  return 0;
}

static int waitgroup_negative(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_waitgroup_add(&group, 1);
  llgo_waitgroup_done(&group);
  llgo_waitgroup_done(&group);
  return 0;
}

/* ---- Once ---- */

static llgo_once once;
static int once_calls;

static void slow_init(void *unused) {
  (void)unused;
  once_calls++;
  for (int i = 0; i < 10; i++) llgo_gosched(); /* the other callers arrive and wait */
  llgo_sleep(1 * MS);
}

static void once_caller(void *unused) {
  (void)unused;
  llgo_once_do(&once, slow_init, NULL);
  EXPECT(__atomic_load_n(&once.done, __ATOMIC_SEQ_CST) == 1, "Do returned before the call finished");
  llgo_waitgroup_done(&group);
}

static void panicking_init(void *unused) {
  (void)unused;
  once_calls++;
  llgo_panic("init failed");
}

static void recover_quietly(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  printf("recovered: %s\n", message ? message : "nil");
}

static int once_runs_once(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_waitgroup_add(&group, 5);
  for (int i = 0; i < 5; i++) llgo_go(once_caller, NULL);
  llgo_waitgroup_wait(&group);
  printf("5 callers, %d call\n", once_calls);
  /* A call that panics counts as done (Go's deferred store). */
  static llgo_once panicking;
  once_calls = 0;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, recover_quietly, NULL);
    llgo_once_do(&panicking, panicking_init, NULL);
  }
  llgo_defer_end(&frame);
  llgo_once_do(&panicking, panicking_init, NULL);
  printf("after a panic: %d call\n", once_calls);
  return 0;
}

/* ---- Cond ---- */

static llgo_cond cond = {&mutex, {0, 0, NULL, NULL}};
static int queue_length, woken_by_broadcast;
static int go_ahead;

static void consumer(void *unused) {
  (void)unused;
  llgo_mutex_lock(&mutex);
  while (queue_length == 0) llgo_cond_wait(&cond);
  queue_length--;
  llgo_mutex_unlock(&mutex);
  llgo_chan_send(finished, NULL);
}

static void broadcast_waiter(void *unused) {
  (void)unused;
  llgo_mutex_lock(&mutex);
  while (!go_ahead) llgo_cond_wait(&cond);
  woken_by_broadcast++;
  llgo_mutex_unlock(&mutex);
  llgo_chan_send(finished, NULL);
}

static int cond_signal_and_broadcast(int argc, char **argv) {
  (void)argc, (void)argv;
  finished = llgo_chan_make(0, 5);
  for (int i = 0; i < 3; i++) llgo_go(consumer, NULL);
  for (int i = 0; i < 3; i++) {
    llgo_sleep(1 * MS);
    llgo_mutex_lock(&mutex);
    queue_length++;
    llgo_cond_signal(&cond);
    llgo_mutex_unlock(&mutex);
  }
  for (int i = 0; i < 3; i++) llgo_chan_recv(finished, NULL);
  for (int i = 0; i < 5; i++) llgo_go(broadcast_waiter, NULL);
  llgo_sleep(5 * MS);
  llgo_mutex_lock(&mutex);
  go_ahead = 1;
  llgo_cond_broadcast(&cond);
  llgo_mutex_unlock(&mutex);
  for (int i = 0; i < 5; i++) llgo_chan_recv(finished, NULL);
  printf("3 items consumed after signals, %d woken by one broadcast\n", woken_by_broadcast);
  return 0;
}

/* A notify before the wait (ticket taken, wait not yet queued) is not lost. */
static int notify_before_wait(int argc, char **argv) {
  (void)argc, (void)argv;
  static llgo_notify_list list;
  uint32_t ticket = llgo_notify_list_add(&list);
  llgo_notify_list_notify_one(&list);
  llgo_notify_list_wait(&list, ticket); /* returns at once */
  llgo_notify_list_notify_all(&list);   /* nobody waits: nothing to do */
  printf("ticket %u was already notified\n", ticket);
  return 0;
}

/* ---- semaphores ---- */

static uint32_t sema;
static _Atomic(llgo_g *) sema_waiters[3];

static void sema_waiter(void *id) {
  sema_waiters[(intptr_t)id] = llgo_current_g();
  llgo_semacquire(&sema);
  event("waiter %d acquired", (int)(intptr_t)id);
  llgo_chan_send(finished, NULL);
}

/* Waiters acquire in FIFO order; a release with handoff gives the count
 * straight to the first waiter. */
static int semaphore_fifo_and_handoff(int argc, char **argv) {
  (void)argc, (void)argv;
  finished = llgo_chan_make(0, 3);
  sema = 1;
  llgo_semacquire(&sema); /* a count is there: no wait */
  for (intptr_t i = 0; i < 3; i++) {
    llgo_go(sema_waiter, (void *)i);
    wait_parked(&sema_waiters[i]);
  }
  for (int i = 0; i < 3; i++) {
    llgo_semrelease(&sema, i == 1);
    llgo_chan_recv(finished, NULL);
  }
  printf("%s; count %u\n", events(), sema);
  return 0;
}

const blocking_case sync_cases[] = {
    {"mutex-exclusion", mutex_exclusion},
    {"mutex-starvation-mode", mutex_starvation_mode},
    {"mutex-try-lock", mutex_try_lock},
    {"mutex-unlock-of-unlocked", mutex_unlock_of_unlocked},
    {"mutex-deadlock", mutex_deadlock},
    {"rwmutex-readers-and-writer", rwmutex_readers_and_writer},
    {"rwmutex-runlock-of-unlocked", rwmutex_runlock_of_unlocked},
    {"rwmutex-unlock-of-unlocked", rwmutex_unlock_of_unlocked},
    {"waitgroup-waits-for-all", waitgroup_waits_for_all},
    {"waitgroup-negative", waitgroup_negative},
    {"once-runs-once", once_runs_once},
    {"cond-signal-and-broadcast", cond_signal_and_broadcast},
    {"notify-before-wait", notify_before_wait},
    {"semaphore-fifo-and-handoff", semaphore_fifo_and_handoff},
    {NULL, NULL},
};
