// Private to the wasi-threads pthread layer (pthread_wasi_threads.c, pthread_exit_wasi_threads.c,
// wasi_thread_start.s): the thread control block that a pthread_t points at.
#ifndef LLGO_WASI_PTHREAD_WASI_THREADS_H
#define LLGO_WASI_PTHREAD_WASI_THREADS_H

#include <stddef.h>

#define LLGO_WASI_PTHREAD_KEYS_MAX 128

struct __pthread {
  // Read by wasi_thread_start.s before any C runs: must stay the first field.
  void *stack_top;
  void *tls_block;
  void *memory_block;  // what free() releases: control block, TLS and stack
  size_t stack_size;
  int thread_id;       // from the host's thread-spawn
  void *(*start_routine)(void *);
  void *start_argument;
  void *result;
  void *exit_point;    // a jmp_buf on this thread's stack while pthread_exit can reach it
  volatile int run_state;
  volatile int detach_state;
  struct __pthread *next_exited;
  void *key_values[LLGO_WASI_PTHREAD_KEYS_MAX];
};

// Runs the start routine; overridden by pthread_exit_wasi_threads.c (see there).
void *__llgo_wasi_run_start_routine(struct __pthread *thread);
// Waits until no thread but the caller is running (pthread_exit on the main thread).
void __llgo_wasi_wait_for_other_threads(void);

#endif
