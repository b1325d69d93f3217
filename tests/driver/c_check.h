/* CHECK and contains() for the C API's C tests: a failed check prints where and counts in
 * `failures`; main prints the verdict ctest matches. */
#ifndef LLGO_WASM_C_CHECK_H
#define LLGO_WASM_C_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                              \
  do {                                                                                \
    if (!(condition)) {                                                               \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                     \
    }                                                                                 \
  } while (0)

static inline int contains(const char* text, const char* fragment) { return text && strstr(text, fragment) != NULL; }

#endif
