/* The C API on hostile input, called the way a Go program calls it through cgo: from a
 * thread with a small stack (256 KiB here). Every call must come back with a status and a
 * message naming the problem: deep JSON in a descriptor or in the request, a huge
 * //llgo:build line, a file name that is not UTF-8, NULL arguments. A crash fails the test
 * (ctest sees the signal). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c_check.h"
#include "llgo_wasm.h"

static llgo_wasm_driver* driver = NULL;
static char directory[256];

static char* repeat(const char* head, const char* unit, size_t count, const char* tail) {
  size_t length = strlen(head) + strlen(unit) * count + strlen(tail);
  char* text = malloc(length + 1);
  char* end = stpcpy(text, head);
  for (size_t i = 0; i < count; ++i) end = stpcpy(end, unit);
  strcpy(end, tail);
  return text;
}

static void write_file(const char* name, const char* text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", directory, name);
  FILE* file = fopen(path, "wb");
  CHECK(file != NULL);
  if (!file) return;
  fputs(text, file);
  fclose(file);
}

typedef llgo_wasm_status (*request_call)(const llgo_wasm_driver*, const char*, char**, char**);

/* Expects `status` and an error containing `fragment`; prints the message. */
static void expect_error(const char* label, request_call call, const char* request, llgo_wasm_status status,
                         const char* fragment) {
  char* result = NULL;
  char* error = NULL;
  llgo_wasm_status got = call(driver, request, &result, &error);
  if (got != status || result != NULL || !contains(error, fragment)) {
    fprintf(stderr, "%s: status %d (expected %d), error: %s\n  expected it to contain: %s\n", label, (int)got, (int)status,
            error ? error : "(none)", fragment);
    ++failures;
  } else {
    printf("%s: %.160s\n", label, error);
  }
  llgo_wasm_string_free(result);
  llgo_wasm_string_free(error);
}

/* Selects sources in a new subdirectory holding `file` with `text` (which is freed). */
static void sources_of(const char* label, const char* subdirectory, const char* file, char* text, const char* fragment) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", directory, subdirectory);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/%s", subdirectory, file);
  write_file(path, text);
  free(text);
  char request[1024];
  snprintf(request, sizeof request, "{\"query\": {\"target\": \"wasip1\"}, \"dir\": \"%s/%s\"}", directory, subdirectory);
  expect_error(label, llgo_wasm_select_sources, request, LLGO_WASM_BAD_REQUEST, fragment);
}

static void* hostile_calls(void* unused) {
  (void)unused;
  char request[1024];

  /* 20,000 nested '[' in a custom descriptor: the position scanner used to recurse, use
   * 868 MB and die with SIGSEGV. */
  char* deep = repeat("{\"name\": \"deep\", \"inherits\": \"wasip1\", \"//\": ", "[", 20000, "");
  char* deep_tail = repeat(deep, "]", 20000, "}");
  write_file("deep.json", deep_tail);
  free(deep);
  free(deep_tail);
  snprintf(request, sizeof request, "{\"target\": \"%s/deep.json\"}", directory);
  expect_error("deep descriptor", llgo_wasm_resolve, request, LLGO_WASM_BAD_REQUEST, "nested deeper than 64 levels");

  /* The request itself nested 100,000 deep. */
  char* open = repeat("{\"query\": {\"env\": ", "[", 100000, "");
  char* nested = repeat(open, "]", 100000, "}}");
  expect_error("deep request", llgo_wasm_select_sources, nested, LLGO_WASM_BAD_REQUEST, "nested deeper than 64 levels");
  {
    /* The package cache's entry points read requests through the same boundary. */
    char* result = NULL;
    char* error = NULL;
    CHECK(llgo_wasm_cache_get(nested, &result, &error) == LLGO_WASM_BAD_REQUEST);
    CHECK(result == NULL && contains(error, "nested deeper than 64 levels"));
    llgo_wasm_string_free(error);
  }
  free(open);
  free(nested);

  /* //llgo:build lines with 300,000 '!' and with a 300,000-term && chain. */
  sources_of("300,000 !", "nots", "a.c", repeat("//llgo:build ", "!", 300000, "wasm\n"),
             "longer than 4096 characters (the limit)");
  sources_of("300,000-term &&", "chain", "a.c", repeat("//llgo:build wasm", " && wasm", 300000, "\n"),
             "longer than 4096 characters (the limit)");
  /* A Latin-1 file name among the runtime sources. */
  sources_of("non-UTF-8 name", "latin1", "caf\xe9.c", repeat("//llgo:build llgo\n", "", 0, ""),
             "caf\\xE9.c: the file name is not valid UTF-8");

  /* NULL arguments: NULL_ARGUMENT, as llgo_wasm.h promises. */
  char* result = NULL;
  char* error = NULL;
  CHECK(llgo_wasm_resolve(NULL, "{}", &result, &error) == LLGO_WASM_NULL_ARGUMENT);
  CHECK(result == NULL && contains(error, "driver handle is NULL"));
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_list_targets(NULL, &result, &error) == LLGO_WASM_NULL_ARGUMENT);
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_cache_key(NULL, "{}", &result, &error) == LLGO_WASM_NULL_ARGUMENT);
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_resolve(driver, NULL, &result, &error) == LLGO_WASM_NULL_ARGUMENT);
  CHECK(contains(error, "request JSON is NULL"));
  llgo_wasm_string_free(error);
  /* The package cache's entry points share the boundary (c_api_boundary.hpp). */
  CHECK(llgo_wasm_cache_get(NULL, &result, &error) == LLGO_WASM_NULL_ARGUMENT);
  CHECK(result == NULL && contains(error, "request JSON is NULL"));
  llgo_wasm_string_free(error);
  return NULL;
}

int main(void) {
  snprintf(directory, sizeof directory, "%s/llgo-wasm-c-api-hostile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(directory)) {
    perror("mkdtemp");
    return 1;
  }
  char* error = NULL;
  CHECK(llgo_wasm_driver_new(&driver, &error) == LLGO_WASM_OK);

  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, 256 * 1024);
  pthread_t thread;
  CHECK(pthread_create(&thread, &attributes, hostile_calls, NULL) == 0);
  pthread_join(thread, NULL);
  pthread_attr_destroy(&attributes);

  llgo_wasm_driver_free(driver);
  char command[512];
  snprintf(command, sizeof command, "rm -rf '%s'", directory);
  CHECK(system(command) == 0);
  printf("%s\n", failures ? "C API hostile-input test FAILED" : "C API hostile-input test passed");
  return failures ? 1 : 0;
}
