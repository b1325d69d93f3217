//llgo:build !wasm || llgo.wasi_threads
/*
 * fatal_default.c - llgo_fatal for native builds and P1T (threads): prints
 * "fatal error: <msg>" with one write(2) call (atomic with respect to other
 * threads' messages, usable on a nearly exhausted stack) and exits with 2.
 * exit (not _exit) runs atexit handlers, so coverage data is flushed.
 */
#include "llgo_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Noreturn void llgo_fatal(const char *msg) {
  static const char prefix[] = "fatal error: ";
  char line[512];
  size_t length = strlen(msg);
  if (length > sizeof line - sizeof prefix - 1) {
    length = sizeof line - sizeof prefix - 1;
  }
  memcpy(line, prefix, sizeof prefix - 1);
  memcpy(line + sizeof prefix - 1, msg, length);
  line[sizeof prefix - 1 + length] = '\n';
  fflush(stdout);
  ssize_t ignored = write(STDERR_FILENO, line, sizeof prefix + length);
  (void)ignored;
  exit(2);
}
