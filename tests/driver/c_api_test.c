/* The C API, from C: every entry point, success and failure, and no leaks (the
 * sanitizer build checks that every returned string is freed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "llgo_wasm.h"

static void check_resolves(const llgo_wasm_driver* driver, const char* query, const char* fragments[]) {
  char* result = NULL;
  char* error = NULL;
  llgo_wasm_status status = llgo_wasm_resolve(driver, query, &result, &error);
  CHECK(status == LLGO_WASM_OK);
  CHECK(error == NULL);
  for (int i = 0; fragments[i]; ++i) {
    if (!contains(result, fragments[i])) {
      fprintf(stderr, "query %s: result lacks %s\n", query, fragments[i]);
      ++failures;
    }
  }
  llgo_wasm_string_free(result);
}

int main(void) {
  llgo_wasm_driver* driver = NULL;
  char* error = NULL;
  char* result = NULL;

  CHECK(strlen(llgo_wasm_version()) > 0);
  CHECK(llgo_wasm_driver_new(&driver, &error) == LLGO_WASM_OK);
  CHECK(driver != NULL && error == NULL);

  const char* j32[] = {"\"variant\":\"J32\"", "\"triple\":\"wasm32-unknown-emscripten\"",
                       "\"implied\":{\"goarch\":true,\"goos\":true}", NULL};
  check_resolves(driver, "{\"target\": \"wasm\", \"env\": {\"GOOS\": \"wasip1\"}}", j32);
  const char* j64[] = {"\"variant\":\"J64\"", "\"memory64\":true", "\"pointer\":8", NULL};
  check_resolves(driver, "{\"env\": {\"GOOS\": \"js\", \"GOARCH\": \"wasm\"}}", j64);
  const char* p1[] = {"\"variant\":\"P1\"", "\"asyncify\":\"post-link\"", "\"final\":\"exnref\"", NULL};
  check_resolves(driver, "{\"goos\": \"wasip1\", \"goarch\": \"wasm\"}", p1);
  const char* p1t[] = {"\"variant\":\"P1T\"", "\"triple\":\"wasm32-wasip1-threads\"", "\"threads\":true", NULL};
  check_resolves(driver, "{\"goos\": \"wasip1\", \"goarch\": \"wasm\", \"env\": {\"LLGO_WASI_THREADS\": \"1\"}}", p1t);
  const char* native[] = {"\"variant\":\"native\"", "\"run-engines\":[\"native\"]", NULL};
  check_resolves(driver, "{}", native);

  /* Bad requests: an error text, no result, and the library stays usable. */
  CHECK(llgo_wasm_resolve(driver, "{\"target\": \"wasmm\"}", &result, &error) == LLGO_WASM_BAD_REQUEST);
  CHECK(result == NULL);
  CHECK(contains(error, "unknown target \"wasmm\" (did you mean \"wasm\"?)"));
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_resolve(driver, "{\"goos\": \"wasip1\", \"goarch\": \"wasm\", \"env\": {\"LLGO_WASI_THREADS\": \"yes\"}}",
                          &result, &error) == LLGO_WASM_BAD_REQUEST);
  CHECK(contains(error, "LLGO_WASI_THREADS=\"yes\" is not accepted"));
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_resolve(driver, "{not json", &result, &error) == LLGO_WASM_BAD_REQUEST);
  CHECK(contains(error, "bad request JSON"));
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_resolve(NULL, "{}", &result, &error) == LLGO_WASM_NULL_ARGUMENT);
  CHECK(contains(error, "driver handle is NULL"));
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_resolve(driver, "{}", NULL, &error) == LLGO_WASM_NULL_ARGUMENT);
  llgo_wasm_string_free(error);
  CHECK(llgo_wasm_resolve(driver, "{}", NULL, NULL) == LLGO_WASM_NULL_ARGUMENT);  /* no error slot: still safe */

  CHECK(llgo_wasm_list_targets(driver, &result, &error) == LLGO_WASM_OK);
  CHECK(contains(result, "\"name\":\"wasip1-threads\"") && !contains(result, "wasm-base\","));
  llgo_wasm_string_free(result);

  CHECK(llgo_wasm_name_output(driver, "{\"query\": {\"target\": \"wasm\"}, \"output\": \"hello.mjs\"}", &result, &error) ==
        LLGO_WASM_OK);
  CHECK(contains(result, "\"format\":\"es-module\"") && contains(result, "\"path\":\"hello.mjs\""));
  llgo_wasm_string_free(result);
  CHECK(llgo_wasm_name_output(driver, "{\"query\": {\"target\": \"wasip1\"}, \"output\": \"hello.js\"}", &result, &error) ==
        LLGO_WASM_BAD_REQUEST);
  CHECK(contains(error, "use .wasm"));
  llgo_wasm_string_free(error);

  CHECK(llgo_wasm_select_sources(driver, "{\"query\": {\"target\": \"wasip1\"}, \"dir\": \"/nonexistent-llgo-wasm\"}",
                                 &result, &error) == LLGO_WASM_BAD_REQUEST);
  CHECK(contains(error, "not a directory"));
  llgo_wasm_string_free(error);

  /* A cache key over this test's own source directory (passed by ctest). */
  const char* root = getenv("LLGO_WASM_TEST_PACKAGE_ROOT");
  CHECK(root != NULL);
  if (root) {
    char request[4096];
    snprintf(request, sizeof request,
             "{\"query\": {\"target\": \"wasm\"}, \"package_root\": \"%s\", \"files\": [\"c_api_test.c\"], "
             "\"toolchain\": {\"clang\": \"19\"}, \"flags\": [\"-O2\"], \"dependency_keys\": []}",
             root);
    CHECK(llgo_wasm_cache_key(driver, request, &result, &error) == LLGO_WASM_OK);
    CHECK(contains(result, "\"key\":\"") && contains(result, "\"path\":\"c_api_test.c\""));
    llgo_wasm_string_free(result);
  }

  llgo_wasm_driver_free(driver);
  llgo_wasm_driver_free(NULL);
  llgo_wasm_string_free(NULL);
  printf("%s\n", failures ? "C API test FAILED" : "C API test passed");
  return failures ? 1 : 0;
}
