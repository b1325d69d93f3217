// A small POSIX-threads core for wasm32-wasip1-threads, on top of the wasi-threads proposal.
//
// Why this exists: the only wasi-libc source reachable from Debian's archive here (bookworm's
// 0.0~git20220510) predates wasi-libc's own pthread support, so tools/setup/wasi-threads-sysroot.sh
// builds that libc for shared memory (atomics, bulk memory, real TLS, a locked allocator) and adds
// this file for the threads themselves.
//
// What it gives: pthread_create/join/detach/self/equal/exit, attributes (stack size, detach state),
// mutexes (normal, recursive, error-checking), condition variables (with CLOCK_REALTIME or
// CLOCK_MONOTONIC timeouts), pthread_once, thread-specific keys with destructors, and sched_yield
// stays libc's. Every blocking wait is a futex on linear memory: memory.atomic.wait32/notify.
//
// Limits, on purpose: no cancellation, no robust or priority-inheritance mutexes, no
// process-shared objects, no rwlocks, barriers or semaphores; the stack is malloc'd (no guard
// page: WebAssembly has none); pthread_exit from a thread other than main needs libsetjmp (it
// unwinds with longjmp, see pthread_exit_wasi_threads.c). The libc underneath has unlocked stdio,
// so two threads writing the same FILE at once may interleave; llgo's P1T scheduler runs one
// goroutine at a time, which is what this layer is built for.

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pthread_wasi_threads.h"

// ---------------------------------------------------------------------------------------------
// Host interface (wasi-threads): spawn a thread that will call wasi_thread_start(tid, start_arg).
// Returns the new thread's id (> 0) or a negative value on failure.
int32_t __llgo_wasi_thread_spawn(void *start_arg)
    __attribute__((__import_module__("wasi"), __import_name__("thread-spawn")));

// The thread entry point (wasi_thread_start.s). Nothing calls it from C, so without this
// reference a static link would not pull it out of libc.a and the module would not export it.
void wasi_thread_start(int32_t thread_id, void *start_argument);
__attribute__((__used__)) static void (*const keep_thread_entry_point)(int32_t, void *) =
    wasi_thread_start;

// Linker-synthesized when linking with --shared-memory: copies the module's TLS image to `block`
// and points this thread's __tls_base at it.
extern void __wasm_init_tls(void *block);

// run_state: the futex word pthread_join sleeps on.
enum {
  THREAD_RUNNING = 0,
  THREAD_EXITED = 1,
};

// detach_state: who frees the thread's block. It starts as PTHREAD_CREATE_JOINABLE or
// PTHREAD_CREATE_DETACHED; a joinable thread that ends moves it to JOINABLE_THREAD_FINISHED, so
// that a later pthread_detach knows it must free the block itself.
enum { JOINABLE_THREAD_FINISHED = 2 };

enum {
  DEFAULT_STACK_SIZE = 256 * 1024,
  MINIMUM_STACK_SIZE = 16 * 1024,
  STACK_ALIGNMENT = 16,
};

static struct __pthread main_thread_control_block;
static _Thread_local struct __pthread *current_thread;
// Threads created and not yet finished; pthread_exit on the main thread waits for 0.
static volatile int running_thread_count;

// ---------------------------------------------------------------------------------------------
// Futex helpers. The timeout is in nanoseconds, negative means forever. The wait builtin returns
// 0 (woken), 1 (value differed) or 2 (timed out).
static int futex_wait(volatile int *address, int expected, int64_t timeout_ns) {
  return __builtin_wasm_memory_atomic_wait32((int *)address, expected, timeout_ns);
}

static void futex_wake(volatile int *address, unsigned count) {
  __builtin_wasm_memory_atomic_notify((int *)address, count);
}

static int compare_and_swap(volatile int *address, int expected, int desired) {
  __atomic_compare_exchange_n(address, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}

// Nanoseconds from now until `deadline` on `clock`; 0 when already passed, -1 on a bad deadline.
static int64_t nanoseconds_until(clockid_t clock, const struct timespec *deadline) {
  if (deadline->tv_nsec < 0 || deadline->tv_nsec >= 1000000000L) return -1;
  struct timespec now;
  clock_gettime(clock, &now);
  int64_t remaining = (int64_t)(deadline->tv_sec - now.tv_sec) * 1000000000LL +
                      (deadline->tv_nsec - now.tv_nsec);
  return remaining > 0 ? remaining : 0;
}

// ---------------------------------------------------------------------------------------------
// Thread lifetime.

pthread_t pthread_self(void) {
  return current_thread ? current_thread : &main_thread_control_block;
}

// pthread.h also has a pthread_equal macro; the parentheses keep it from expanding here.
int (pthread_equal)(pthread_t a, pthread_t b) { return a == b; }

// Detached threads cannot free the memory they run on; they leave themselves here and the next
// pthread_create or pthread_join frees them. A thread is pushed only after its last write to its
// own block (locals live in the engine, not in linear memory, so returning touches no stack).
static struct __pthread *exited_detached_threads;

static void free_exited_detached_threads(void) {
  struct __pthread *thread = __atomic_exchange_n(&exited_detached_threads, NULL, __ATOMIC_ACQ_REL);
  while (thread) {
    struct __pthread *next = thread->next_exited;
    free(thread->memory_block);
    thread = next;
  }
}

void __llgo_wasi_run_key_destructors(struct __pthread *thread);

// The weak default runs the start routine directly. pthread_exit_wasi_threads.c overrides it
// with a version that can be left by longjmp, so only programs that call pthread_exit pay for
// setjmp/longjmp (and exception handling).
__attribute__((__weak__)) void *__llgo_wasi_run_start_routine(struct __pthread *thread) {
  return thread->start_routine(thread->start_argument);
}

void __llgo_wasi_thread_start_C(int32_t thread_id, struct __pthread *thread) {
  __wasm_init_tls(thread->tls_block);
  current_thread = thread;
  thread->thread_id = thread_id;

  thread->result = __llgo_wasi_run_start_routine(thread);
  __llgo_wasi_run_key_destructors(thread);

  // Joinable threads hand their memory to the joiner; detached ones to the free list. Either way
  // this is the thread's last write to its own block.
  if (compare_and_swap(&thread->detach_state, PTHREAD_CREATE_JOINABLE, JOINABLE_THREAD_FINISHED) ==
      PTHREAD_CREATE_JOINABLE) {
    __atomic_store_n(&thread->run_state, THREAD_EXITED, __ATOMIC_SEQ_CST);
    futex_wake(&thread->run_state, ~0u);
  } else {
    struct __pthread *head = __atomic_load_n(&exited_detached_threads, __ATOMIC_ACQUIRE);
    do {
      thread->next_exited = head;
    } while (!__atomic_compare_exchange_n(&exited_detached_threads, &head, thread, 1,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  }
  if (__atomic_sub_fetch(&running_thread_count, 1, __ATOMIC_SEQ_CST) == 0)
    futex_wake(&running_thread_count, ~0u);
}

void __llgo_wasi_wait_for_other_threads(void) {
  for (int count; (count = __atomic_load_n(&running_thread_count, __ATOMIC_SEQ_CST)) != 0;)
    futex_wait(&running_thread_count, count, -1);
}

int pthread_create(pthread_t *restrict result, const pthread_attr_t *restrict attributes,
                   void *(*start_routine)(void *), void *restrict argument) {
  free_exited_detached_threads();

  size_t stack_size = DEFAULT_STACK_SIZE;
  int detach_state = PTHREAD_CREATE_JOINABLE;
  if (attributes) {
    if (attributes->__u.__s[0]) stack_size = attributes->__u.__s[0];
    detach_state = attributes->__u.__i[3];
  }
  stack_size = (stack_size + STACK_ALIGNMENT - 1) & ~(size_t)(STACK_ALIGNMENT - 1);

  // One block per thread: [control block | TLS | stack ...top].
  size_t tls_alignment = __builtin_wasm_tls_align();
  if (tls_alignment < STACK_ALIGNMENT) tls_alignment = STACK_ALIGNMENT;
  size_t control_size = (sizeof(struct __pthread) + tls_alignment - 1) & ~(tls_alignment - 1);
  size_t tls_size = (__builtin_wasm_tls_size() + STACK_ALIGNMENT - 1) & ~(size_t)(STACK_ALIGNMENT - 1);
  unsigned char *block = aligned_alloc(tls_alignment, control_size + tls_size + stack_size);
  if (!block) return EAGAIN;

  struct __pthread *thread = (struct __pthread *)block;
  memset(thread, 0, sizeof *thread);
  thread->memory_block = block;
  thread->tls_block = block + control_size;
  thread->stack_top = block + control_size + tls_size + stack_size;
  thread->stack_size = stack_size;
  thread->start_routine = start_routine;
  thread->start_argument = argument;
  thread->detach_state = detach_state;
  thread->run_state = THREAD_RUNNING;

  // The atomic add also publishes the block before the host starts the thread elsewhere.
  __atomic_add_fetch(&running_thread_count, 1, __ATOMIC_SEQ_CST);
  int32_t thread_id = __llgo_wasi_thread_spawn(thread);
  if (thread_id <= 0) {
    __atomic_sub_fetch(&running_thread_count, 1, __ATOMIC_SEQ_CST);
    free(block);
    return EAGAIN;
  }
  *result = thread;
  return 0;
}

int pthread_join(pthread_t thread, void **result) {
  if (thread == pthread_self()) return EDEADLK;
  if (thread == &main_thread_control_block) return EINVAL;
  if (__atomic_load_n(&thread->detach_state, __ATOMIC_ACQUIRE) == PTHREAD_CREATE_DETACHED)
    return EINVAL;
  while (__atomic_load_n(&thread->run_state, __ATOMIC_ACQUIRE) != THREAD_EXITED)
    futex_wait(&thread->run_state, THREAD_RUNNING, -1);
  if (result) *result = thread->result;
  free(thread->memory_block);
  free_exited_detached_threads();
  return 0;
}

int pthread_detach(pthread_t thread) {
  if (thread == &main_thread_control_block) return EINVAL;
  int previous = compare_and_swap(&thread->detach_state, PTHREAD_CREATE_JOINABLE,
                                  PTHREAD_CREATE_DETACHED);
  if (previous == PTHREAD_CREATE_DETACHED) return EINVAL;
  // The thread already finished as joinable: nobody will join it, so free it the joiner's way.
  if (previous == JOINABLE_THREAD_FINISHED) return pthread_join(thread, NULL);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Attributes. Layout follows musl's: __s[0] stack size, __i[3] detach state.

int pthread_attr_init(pthread_attr_t *attributes) {
  memset(attributes, 0, sizeof *attributes);
  return 0;
}

int pthread_attr_destroy(pthread_attr_t *attributes) { (void)attributes; return 0; }

int pthread_attr_setstacksize(pthread_attr_t *attributes, size_t size) {
  if (size < MINIMUM_STACK_SIZE) return EINVAL;
  attributes->__u.__s[0] = size;
  return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *restrict attributes, size_t *restrict size) {
  *size = attributes->__u.__s[0] ? attributes->__u.__s[0] : DEFAULT_STACK_SIZE;
  return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *attributes, int state) {
  if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED) return EINVAL;
  attributes->__u.__i[3] = state;
  return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *attributes, int *state) {
  *state = attributes->__u.__i[3];
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Mutexes: Drepper's three-state futex lock ("Futexes are tricky", mutex #2).
// Layout follows musl's: __i[0] type, __vi[1] lock word (0 free, 1 locked, 2 locked with
// waiters), __p[2] owner (recursive and error-checking types), __i[5] recursion count.

enum { MUTEX_FREE = 0, MUTEX_LOCKED = 1, MUTEX_CONTENDED = 2 };

int pthread_mutexattr_init(pthread_mutexattr_t *attributes) { attributes->__attr = 0; return 0; }
int pthread_mutexattr_destroy(pthread_mutexattr_t *attributes) { (void)attributes; return 0; }

int pthread_mutexattr_settype(pthread_mutexattr_t *attributes, int type) {
  if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_RECURSIVE &&
      type != PTHREAD_MUTEX_ERRORCHECK)
    return EINVAL;
  attributes->__attr = (attributes->__attr & ~3u) | (unsigned)type;
  return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *restrict attributes, int *restrict type) {
  *type = attributes->__attr & 3;
  return 0;
}

int pthread_mutex_init(pthread_mutex_t *restrict mutex,
                       const pthread_mutexattr_t *restrict attributes) {
  memset(mutex, 0, sizeof *mutex);
  if (attributes) mutex->__u.__i[0] = attributes->__attr & 3;
  return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *mutex) { (void)mutex; return 0; }

static int mutex_owned_by_caller(pthread_mutex_t *mutex) {
  return mutex->__u.__p[2] == (void *)pthread_self() &&
         __atomic_load_n(&mutex->__u.__vi[1], __ATOMIC_RELAXED) != MUTEX_FREE;
}

// Returns 0 when the caller must still take the lock word, or the final result otherwise.
static int mutex_check_owner_before_lock(pthread_mutex_t *mutex, int *done) {
  *done = 0;
  int type = mutex->__u.__i[0];
  if (type == PTHREAD_MUTEX_NORMAL || !mutex_owned_by_caller(mutex)) return 0;
  *done = 1;
  if (type == PTHREAD_MUTEX_ERRORCHECK) return EDEADLK;
  if (mutex->__u.__i[5] == INT32_MAX) return EAGAIN;
  mutex->__u.__i[5]++;
  return 0;
}

static void mutex_record_owner(pthread_mutex_t *mutex) {
  if (mutex->__u.__i[0] != PTHREAD_MUTEX_NORMAL) {
    mutex->__u.__p[2] = (void *)pthread_self();
    mutex->__u.__i[5] = 1;
  }
}

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
  int done;
  int result = mutex_check_owner_before_lock(mutex, &done);
  if (done) return result == EDEADLK ? EBUSY : result;
  if (compare_and_swap(&mutex->__u.__vi[1], MUTEX_FREE, MUTEX_LOCKED) != MUTEX_FREE) return EBUSY;
  mutex_record_owner(mutex);
  return 0;
}

static int mutex_lock_until(pthread_mutex_t *mutex, clockid_t clock,
                            const struct timespec *deadline) {
  int done;
  int result = mutex_check_owner_before_lock(mutex, &done);
  if (done) return result;
  volatile int *word = &mutex->__u.__vi[1];
  int state = compare_and_swap(word, MUTEX_FREE, MUTEX_LOCKED);
  if (state != MUTEX_FREE) {
    if (state != MUTEX_CONTENDED) state = __atomic_exchange_n(word, MUTEX_CONTENDED, __ATOMIC_SEQ_CST);
    while (state != MUTEX_FREE) {
      int64_t timeout = -1;
      if (deadline) {
        timeout = nanoseconds_until(clock, deadline);
        if (timeout < 0) return EINVAL;
        if (timeout == 0) return ETIMEDOUT;
      }
      futex_wait(word, MUTEX_CONTENDED, timeout);
      state = __atomic_exchange_n(word, MUTEX_CONTENDED, __ATOMIC_SEQ_CST);
    }
  }
  mutex_record_owner(mutex);
  return 0;
}

int pthread_mutex_lock(pthread_mutex_t *mutex) { return mutex_lock_until(mutex, CLOCK_REALTIME, NULL); }

int pthread_mutex_timedlock(pthread_mutex_t *restrict mutex, const struct timespec *restrict deadline) {
  return mutex_lock_until(mutex, CLOCK_REALTIME, deadline);
}

int pthread_mutex_unlock(pthread_mutex_t *mutex) {
  if (mutex->__u.__i[0] != PTHREAD_MUTEX_NORMAL) {
    if (!mutex_owned_by_caller(mutex)) return EPERM;
    if (--mutex->__u.__i[5] > 0) return 0;
    mutex->__u.__p[2] = NULL;
  }
  if (__atomic_exchange_n(&mutex->__u.__vi[1], MUTEX_FREE, __ATOMIC_SEQ_CST) == MUTEX_CONTENDED)
    futex_wake(&mutex->__u.__vi[1], 1);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Condition variables: a sequence counter. A waiter samples it, releases the mutex and sleeps
// while it is unchanged; signal and broadcast bump it and wake one or all. Spurious wake-ups are
// allowed by POSIX and callers loop on their predicate.
// Layout: __vi[2] sequence, __i[4] clock (from the condattr; CLOCK_REALTIME by default).

int pthread_condattr_init(pthread_condattr_t *attributes) { attributes->__attr = 0; return 0; }
int pthread_condattr_destroy(pthread_condattr_t *attributes) { (void)attributes; return 0; }

int pthread_condattr_setclock(pthread_condattr_t *attributes, clockid_t clock) {
  if (clock == CLOCK_REALTIME) attributes->__attr = 0;
  else if (clock == CLOCK_MONOTONIC) attributes->__attr = 1;
  else return EINVAL;
  return 0;
}

int pthread_condattr_getclock(const pthread_condattr_t *restrict attributes,
                              clockid_t *restrict clock) {
  *clock = attributes->__attr == 1 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
  return 0;
}

int pthread_cond_init(pthread_cond_t *restrict condition,
                      const pthread_condattr_t *restrict attributes) {
  memset(condition, 0, sizeof *condition);
  if (attributes) condition->__u.__i[4] = (int)attributes->__attr;
  return 0;
}

int pthread_cond_destroy(pthread_cond_t *condition) { (void)condition; return 0; }

static int cond_wait_until(pthread_cond_t *condition, pthread_mutex_t *mutex,
                           const struct timespec *deadline) {
  clockid_t clock = condition->__u.__i[4] == 1 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
  volatile int *sequence = &condition->__u.__vi[2];
  int sampled = __atomic_load_n(sequence, __ATOMIC_SEQ_CST);

  // A recursive mutex is released fully and re-taken at the same depth.
  int recursion = mutex->__u.__i[5];
  if (mutex->__u.__i[0] != PTHREAD_MUTEX_NORMAL) {
    if (!mutex_owned_by_caller(mutex)) return EPERM;
    mutex->__u.__i[5] = 1;
  }
  pthread_mutex_unlock(mutex);

  int result = 0;
  int64_t timeout = -1;
  if (deadline) timeout = nanoseconds_until(clock, deadline);
  if (deadline && timeout < 0) result = EINVAL;
  else if (deadline && timeout == 0) result = ETIMEDOUT;
  else if (futex_wait(sequence, sampled, timeout) == 2) result = ETIMEDOUT;

  mutex_lock_until(mutex, CLOCK_REALTIME, NULL);
  if (mutex->__u.__i[0] != PTHREAD_MUTEX_NORMAL) mutex->__u.__i[5] = recursion;
  return result;
}

int pthread_cond_wait(pthread_cond_t *restrict condition, pthread_mutex_t *restrict mutex) {
  return cond_wait_until(condition, mutex, NULL);
}

int pthread_cond_timedwait(pthread_cond_t *restrict condition, pthread_mutex_t *restrict mutex,
                           const struct timespec *restrict deadline) {
  return cond_wait_until(condition, mutex, deadline);
}

int pthread_cond_signal(pthread_cond_t *condition) {
  __atomic_fetch_add(&condition->__u.__vi[2], 1, __ATOMIC_SEQ_CST);
  futex_wake(&condition->__u.__vi[2], 1);
  return 0;
}

int pthread_cond_broadcast(pthread_cond_t *condition) {
  __atomic_fetch_add(&condition->__u.__vi[2], 1, __ATOMIC_SEQ_CST);
  futex_wake(&condition->__u.__vi[2], ~0u);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// pthread_once: 0 not run, 1 running, 2 done.

int pthread_once(pthread_once_t *once, void (*routine)(void)) {
  volatile int *state = once;
  for (;;) {
    int seen = compare_and_swap(state, 0, 1);
    if (seen == 0) {
      routine();
      __atomic_store_n(state, 2, __ATOMIC_SEQ_CST);
      futex_wake(state, ~0u);
      return 0;
    }
    if (seen == 2) return 0;
    futex_wait(state, 1, -1);
  }
}

// ---------------------------------------------------------------------------------------------
// Thread-specific data: a fixed table of keys; each thread's values live in its control block.

static void (*key_destructors[LLGO_WASI_PTHREAD_KEYS_MAX])(void *);
static int key_in_use[LLGO_WASI_PTHREAD_KEYS_MAX];

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
  for (unsigned index = 0; index < LLGO_WASI_PTHREAD_KEYS_MAX; index++) {
    int expected = 0;
    if (__atomic_compare_exchange_n(&key_in_use[index], &expected, 1, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
      __atomic_store_n(&key_destructors[index], destructor, __ATOMIC_SEQ_CST);
      *key = index;
      return 0;
    }
  }
  return EAGAIN;
}

int pthread_key_delete(pthread_key_t key) {
  if (key >= LLGO_WASI_PTHREAD_KEYS_MAX || !key_in_use[key]) return EINVAL;
  __atomic_store_n(&key_destructors[key], NULL, __ATOMIC_SEQ_CST);
  __atomic_store_n(&key_in_use[key], 0, __ATOMIC_SEQ_CST);
  return 0;
}

void *pthread_getspecific(pthread_key_t key) {
  if (key >= LLGO_WASI_PTHREAD_KEYS_MAX) return NULL;
  return pthread_self()->key_values[key];
}

int pthread_setspecific(pthread_key_t key, const void *value) {
  if (key >= LLGO_WASI_PTHREAD_KEYS_MAX || !key_in_use[key]) return EINVAL;
  pthread_self()->key_values[key] = (void *)value;
  return 0;
}

// POSIX: repeat while destructors set new values, at most PTHREAD_DESTRUCTOR_ITERATIONS times.
void __llgo_wasi_run_key_destructors(struct __pthread *thread) {
  for (int round = 0; round < 4; round++) {
    int ran_any = 0;
    for (unsigned index = 0; index < LLGO_WASI_PTHREAD_KEYS_MAX; index++) {
      void *value = thread->key_values[index];
      void (*destructor)(void *) = __atomic_load_n(&key_destructors[index], __ATOMIC_SEQ_CST);
      if (value && destructor) {
        thread->key_values[index] = NULL;
        destructor(value);
        ran_any = 1;
      }
    }
    if (!ran_any) return;
  }
}
