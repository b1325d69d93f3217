//llgo:build !wasm
/*
 * wasmcontext_stack_guard_native.c - the native side of the stack guard
 * (wasmcontext_stack_guard.h): guard pages below a stack's limit, and a SIGSEGV/SIGBUS handler,
 * run on the thread's alternate signal stack, that reports a fault in the running stack's guard
 * pages as Go's stack overflow. Every other fault is passed on: the handler restores the
 * previous action (the default, or a sanitizer's) and returns, so the instruction faults again
 * and dies of it as it would have without this handler.
 * Limits: the guard is 16 KiB (frames larger than a page are probed page by page by code compiled
 * with -fstack-clash-protection, which the native descriptors' cflags ask for; code compiled
 * without it can jump past the guard with a frame larger than 16 KiB); Linux and other POSIX
 * systems with sigaltstack.
 */
#define _GNU_SOURCE
#include "wasmcontext_stack_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GUARD_BYTES ((size_t)16 * 1024)
#define SIGNAL_STACK_BYTES ((size_t)64 * 1024)

/* The running stack's guard pages and usable size (per thread). */
static _Thread_local const unsigned char *running_guard;
static _Thread_local size_t running_size;
static _Thread_local void *signal_stack;

static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static struct sigaction previous_segv, previous_bus;

size_t llgo_stack_guard_page_size(void) {
  long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? (size_t)page : 4096; /* LCOV_EXCL_LINE: sysconf does not fail for the page size */
}

size_t llgo_stack_guard_bytes(void) {
  size_t page = llgo_stack_guard_page_size();
  return (GUARD_BYTES + page - 1) / page * page;
}

#if defined(__SANITIZE_ADDRESS__)
#define LLGO_STACK_GUARD_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LLGO_STACK_GUARD_LSAN 1
#endif
#endif

#ifdef LLGO_STACK_GUARD_LSAN
/* LeakSanitizer's check at exit reads every heap block and every thread's whole stack, guard
 * pages included, and dies of the fault ("Tracer caught signal 11"). So under the sanitizer the
 * guards in place are remembered, and an exit handler, registered after LeakSanitizer's and so
 * run before it, makes them readable again: at exit no stack runs any more. */
static pthread_mutex_t guards_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char **guards;
static size_t guards_count, guards_capacity;
static pthread_once_t guards_once = PTHREAD_ONCE_INIT;

static void unprotect_all_at_exit(void) {
  int locked = pthread_mutex_trylock(&guards_lock) == 0; /* an exit from a fault may hold it */
  for (size_t i = 0; i < guards_count; i++) {
    mprotect(guards[i], llgo_stack_guard_bytes(), PROT_READ | PROT_WRITE);
  }
  guards_count = 0;
  if (locked) {
    pthread_mutex_unlock(&guards_lock);
  }
}

static void register_exit_handler(void) { atexit(unprotect_all_at_exit); }

static void remember_guard(unsigned char *guard) {
  pthread_once(&guards_once, register_exit_handler);
  pthread_mutex_lock(&guards_lock);
  if (guards_count == guards_capacity) {
    size_t capacity = guards_capacity == 0 ? 64 : guards_capacity * 2;
    unsigned char **grown = realloc(guards, capacity * sizeof *grown);
    if (grown == NULL) {
      abort(); /* LCOV_EXCL_LINE: the sanitizer build only */
    }
    guards = grown;
    guards_capacity = capacity;
  }
  guards[guards_count++] = guard;
  pthread_mutex_unlock(&guards_lock);
}

static void forget_guard(unsigned char *guard) {
  pthread_mutex_lock(&guards_lock);
  for (size_t i = 0; i < guards_count; i++) {
    if (guards[i] == guard) {
      guards[i] = guards[--guards_count];
      break;
    }
  }
  pthread_mutex_unlock(&guards_lock);
}
#endif

int llgo_stack_guard_protect(unsigned char *guard) {
  int result = mprotect(guard, llgo_stack_guard_bytes(), PROT_NONE);
#ifdef LLGO_STACK_GUARD_LSAN
  if (result == 0) {
    remember_guard(guard);
  }
#endif
  return result;
}

void llgo_stack_guard_unprotect(unsigned char *guard) {
#ifdef LLGO_STACK_GUARD_LSAN
  forget_guard(guard);
#endif
  mprotect(guard, llgo_stack_guard_bytes(), PROT_READ | PROT_WRITE);
}

_Noreturn void llgo_stack_overflow_exit(size_t limit_bytes) {
  char line[160];
  int length = snprintf(line, sizeof line,
                        "runtime: goroutine stack exceeds %zu-byte limit\nfatal error: stack overflow\n",
                        limit_bytes);
  fflush(stdout);
  ssize_t ignored = write(STDERR_FILENO, line, (size_t)length);
  (void)ignored;
  exit(2); /* atexit handlers run (coverage data; a test's canary check) */
}

static void on_fault(int signal_number, siginfo_t *info, void *context) {
  (void)context;
  const unsigned char *address = info->si_addr;
  if (running_guard != NULL && address >= running_guard && address < running_guard + llgo_stack_guard_bytes()) {
    llgo_stack_overflow_exit(running_size);
  }
  /* Not ours: put back what was there and fault again. */
  sigaction(signal_number, signal_number == SIGSEGV ? &previous_segv : &previous_bus, NULL); /* LCOV_EXCL_LINE */
} /* LCOV_EXCL_LINE */

static void install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_segv);
  sigaction(SIGBUS, &action, &previous_bus);
}

int llgo_stack_guard_thread_start(void) {
  pthread_once(&install_once, install);
  if (signal_stack != NULL) {
    return 0;
  }
  signal_stack = malloc(SIGNAL_STACK_BYTES);
  if (signal_stack == NULL) {
    return -1; /* LCOV_EXCL_LINE: malloc of 64 KiB */
  }
  stack_t alternate = {.ss_sp = signal_stack, .ss_size = SIGNAL_STACK_BYTES, .ss_flags = 0};
  return sigaltstack(&alternate, NULL);
}

void llgo_stack_guard_thread_end(void) {
  if (signal_stack == NULL) {
    return;
  }
  stack_t off = {.ss_flags = SS_DISABLE};
  sigaltstack(&off, NULL);
  free(signal_stack);
  signal_stack = NULL;
  running_guard = NULL;
}

void llgo_stack_guard_enter(const unsigned char *guard, size_t size) {
  running_guard = guard;
  running_size = size;
}
