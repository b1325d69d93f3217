// main.cpp: a C++ program outside llgo-wasm that finds an installed llgo-wasm with
// find_package(LlgoWasm) and resolves targets through its C API (llgo_wasm.h), as LLGo would:
// -target wasm is J32 on wasm32 with GOOS/GOARCH implied, GOOS=wasip1 GOARCH=wasm is P1, and an
// unknown target is a bad request with a message. Exits 1 on any difference.
#include <cstdio>
#include <string>

#include "llgo_wasm.h"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    ++failures;
  }
}

// The resolved target's JSON without blanks (or the error message).
std::string resolve(const llgo_wasm_driver* driver, const char* query, llgo_wasm_status* status) {
  char* result = nullptr;
  char* error = nullptr;
  *status = llgo_wasm_resolve(driver, query, &result, &error);
  std::string text = result ? result : (error ? error : "");
  if (result) std::erase_if(text, [](char c) { return c == ' ' || c == '\n'; });
  llgo_wasm_string_free(result);
  llgo_wasm_string_free(error);
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

int main() {
  std::printf("llgo-wasm %s\n", llgo_wasm_version());
  llgo_wasm_driver* driver = nullptr;
  char* error = nullptr;
  if (llgo_wasm_driver_new(&driver, &error) != LLGO_WASM_OK) {
    std::fprintf(stderr, "llgo_wasm_driver_new: %s\n", error ? error : "?");
    return 1;
  }
  llgo_wasm_status status;
  std::string j32 = resolve(driver, R"({"target":"wasm"})", &status);
  expect(status == LLGO_WASM_OK && contains(j32, R"("variant":"J32")") && contains(j32, "wasm32-unknown-emscripten"),
         "-target wasm resolves to J32: " + j32.substr(0, 200));
  std::string p1 = resolve(driver, R"({"env":{"GOOS":"wasip1","GOARCH":"wasm"}})", &status);
  expect(status == LLGO_WASM_OK && contains(p1, R"("variant":"P1")") && contains(p1, R"("asyncify":"post-link")"),
         "GOOS=wasip1 GOARCH=wasm resolves to P1: " + p1.substr(0, 200));
  std::string bad = resolve(driver, R"({"target":"wasmm"})", &status);
  expect(status == LLGO_WASM_BAD_REQUEST && contains(bad, "wasmm"), "an unknown target is a bad request: " + bad);
  std::printf("J32: %s\nP1: %s\nunknown target: %s\n", contains(j32, "J32") ? "ok" : "wrong",
              contains(p1, "P1") ? "ok" : "wrong", bad.c_str());
  llgo_wasm_driver_free(driver);
  if (failures == 0) std::printf("cxx-consumer: targets resolved\n");
  return failures == 0 ? 0 : 1;
}
