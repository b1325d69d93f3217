// libFuzzer target: the C API's JSON entry points. The first byte chooses the entry point
// (resolve, name_output, select_sources, cache_key), the rest is the request. Every call
// must return a status, with a result on OK and an error otherwise, and never throw or
// crash; both strings are freed (the leak checker sees a missing free).
//
// Requests run in a private directory holding a few runtime sources, a package and a
// custom descriptor (see LLVMFuzzerInitialize). Requests that could name files outside it
// (absolute paths, "..", JSON escapes that could spell either) are skipped: the fuzzer must
// not hash or list the machine's file system.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unistd.h>

#include "llgo_wasm.h"

namespace {

namespace fs = std::filesystem;

llgo_wasm_driver* driver = nullptr;
fs::path sandbox;

void write(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

bool may_leave_the_sandbox(std::string_view request) {
  return request.find("..") != std::string_view::npos || request.find("\"/") != std::string_view::npos ||
         request.find("\\/") != std::string_view::npos || request.find("\\u") != std::string_view::npos ||
         request.find('~') != std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sandbox = fs::temp_directory_path() / ("llgo-wasm-fuzz-c-api-" + std::to_string(getpid()));
  write(sandbox / "src/proc_wasip1.c", "//llgo:build wasm && wasip1 && !llgo.wasi_threads\nint x;\n");
  write(sandbox / "src/proc_pthread.c", "//llgo:build llgo.context_pthread\n");
  write(sandbox / "src/fatal.h", "//llgo:build llgo\n");
  write(sandbox / "src/broken.S", "//llgo:build wasm &&\n");
  write(sandbox / "pkg/a.go", "package a\n");
  write(sandbox / "pkg/sub/b.go", "package sub\n");
  write(sandbox / "custom.json", R"({"name": "custom", "inherits": "wasip1", "build-tags": ["custom"]})");
  write(sandbox / "bases/base.json", R"({"name": "base", "abstract": true, "inherits": "wasm"})");
  write(sandbox / "child.json", R"({"name": "child", "inherits": "bases/base.json"})");
  fs::current_path(sandbox);
  std::atexit([] {
    fs::current_path(fs::temp_directory_path());
    fs::remove_all(sandbox);
  });
  char* error = nullptr;
  if (llgo_wasm_driver_new(&driver, &error) != LLGO_WASM_OK) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string request(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (may_leave_the_sandbox(request)) return 0;
  using Call = llgo_wasm_status (*)(const llgo_wasm_driver*, const char*, char**, char**);
  static constexpr Call calls[] = {llgo_wasm_resolve, llgo_wasm_name_output, llgo_wasm_select_sources, llgo_wasm_cache_key};
  char* result = nullptr;
  char* error = nullptr;
  llgo_wasm_status status = calls[data[0] % 4](driver, request.c_str(), &result, &error);
  bool consistent = status == LLGO_WASM_OK ? result != nullptr && error == nullptr
                                           : result == nullptr && error != nullptr && std::strlen(error) > 0;
  if (!consistent || status == LLGO_WASM_FAILED) {
    std::fprintf(stderr, "status %d, result %s, error %s\n", static_cast<int>(status), result ? result : "(null)",
                 error ? error : "(null)");
    std::abort();
  }
  llgo_wasm_string_free(result);
  llgo_wasm_string_free(error);
  return 0;
}
