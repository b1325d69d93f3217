/*
 * test_harness.h - a minimal harness for the runtime's C tests.
 *
 * CHECK(cond) records a failure and continues; a test binary returns
 * test_harness_exit_status(). Unit tests of code that must die (fatal
 * errors) go through run_in_child(): it forks, captures the child's output,
 * and checks the exit status and messages. Children end with exit(), so
 * coverage data is flushed. Whole programs under llgo_run_main are test
 * programs instead (tests/harness/test_program.h), one process per case.
 */
#ifndef LLGO_TEST_HARNESS_H
#define LLGO_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int test_failures;

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
      test_failures++;                                                               \
    }                                                                                \
  } while (0)

static int test_harness_exit_status(void) {
  if (test_failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", test_failures);
    return 1;
  }
  return 0;
}

typedef struct child_expectation {
  int exit_status;          /* expected exit status */
  const char *stderr_has;   /* substring that must appear in stderr, or NULL */
  const char *stderr_lacks; /* substring that must not appear, or NULL */
  const char *stdout_is;    /* exact stdout, or NULL to ignore */
} child_expectation;

static size_t read_all(int fd, char *buffer, size_t capacity) {
  size_t length = 0;
  for (;;) {
    ssize_t got = read(fd, buffer + length, capacity - 1 - length);
    if (got <= 0) {
      break;
    }
    length += (size_t)got;
    if (length == capacity - 1) {
      break;
    }
  }
  buffer[length] = '\0';
  return length;
}

/* Runs body() in a child process and checks its exit status and output. */
static __attribute__((unused)) void run_in_child(const char *name, void (*body)(void), child_expectation expect) {
  int err_pipe[2];
  int out_pipe[2];
  if (pipe(err_pipe) != 0 || pipe(out_pipe) != 0) {
    perror("pipe");
    exit(1);
  }
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    exit(1);
  }
  if (child == 0) {
    dup2(err_pipe[1], STDERR_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    close(err_pipe[0]);
    close(out_pipe[0]);
    body();
    fflush(stdout);
    exit(0);
  }
  close(err_pipe[1]);
  close(out_pipe[1]);
  static char err_text[16384];
  static char out_text[16384];
  /* Outputs are small; read stdout first, then stderr (children write little). */
  read_all(out_pipe[0], out_text, sizeof out_text);
  read_all(err_pipe[0], err_text, sizeof err_text);
  close(err_pipe[0]);
  close(out_pipe[0]);
  int status = 0;
  waitpid(child, &status, 0);
  int ok = 1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != expect.exit_status) {
    ok = 0;
    fprintf(stderr, "[%s] expected exit status %d, got %s %d\n", name, expect.exit_status,
            WIFEXITED(status) ? "exit" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  }
  if (expect.stderr_has != NULL && strstr(err_text, expect.stderr_has) == NULL) {
    ok = 0;
    fprintf(stderr, "[%s] stderr lacks \"%s\"\n", name, expect.stderr_has);
  }
  if (expect.stderr_lacks != NULL && strstr(err_text, expect.stderr_lacks) != NULL) {
    ok = 0;
    fprintf(stderr, "[%s] stderr has forbidden \"%s\"\n", name, expect.stderr_lacks);
  }
  if (expect.stdout_is != NULL && strcmp(out_text, expect.stdout_is) != 0) {
    ok = 0;
    fprintf(stderr, "[%s] stdout is \"%s\", expected \"%s\"\n", name, out_text,
            expect.stdout_is);
  }
  if (!ok) {
    fprintf(stderr, "[%s] child stderr was:\n%s\n", name, err_text);
    test_failures++;
  }
  printf("%s %s\n", ok ? "PASS" : "FAIL", name);
}

#endif /* LLGO_TEST_HARNESS_H */
