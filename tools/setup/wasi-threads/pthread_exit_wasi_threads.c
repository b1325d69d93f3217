// pthread_exit for the wasi-threads pthread layer.
//
// A wasi-threads thread ends only by returning from wasi_thread_start, so pthread_exit must
// unwind to it: the start routine runs under setjmp and pthread_exit longjmps back. That needs
// LLVM's WebAssembly setjmp/longjmp lowering (exception handling) and libsetjmp, which is why it
// lives in its own object: a program pulls it in, and pays for it, only by calling pthread_exit.
// On the main thread, POSIX says the process goes on until the last thread ends, then exits 0.
//
// Limit: like any longjmp, this skips C++ destructors on the way out.

#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>

#include "pthread_wasi_threads.h"

void *__llgo_wasi_run_start_routine(struct __pthread *thread) {
  jmp_buf exit_point;
  thread->exit_point = &exit_point;
  if (setjmp(exit_point) == 0) return thread->start_routine(thread->start_argument);
  return thread->result;
}

_Noreturn void pthread_exit(void *result) {
  struct __pthread *self = pthread_self();
  if (!self->exit_point) {
    // The main thread (or a thread whose start routine did not run under setjmp).
    __llgo_wasi_wait_for_other_threads();
    exit(0);
  }
  self->result = result;
  longjmp(*(jmp_buf *)self->exit_point, 1);
}
