// bench_driver.cpp: in-library speed of the llgo-wasm driver, for bench/run.py.
//
//   bench_driver resolve ITERATIONS REPS
//       Loads the built-in descriptors once, then resolves the five built-in targets (wasm,
//       js-wasm, wasip1, wasip1-threads, host) round-robin ITERATIONS times, through the C++ API
//       (resolve_target) and through the C API (llgo_wasm_resolve: JSON in, JSON out, as LLGo
//       calls it). One "RESULT {json}" line per API and repetition: microseconds per resolve.
//   bench_driver cache-key DIR REPS
//       Computes the cache key of the package DIR (every regular file under it: each file is
//       read and SHA-256-digested, then the canonical encoding is hashed), REPS times. One
//       RESULT line per repetition: bytes hashed and milliseconds; run.py compares the
//       throughput with `sha256sum` over the same files.
// Limits: wall-clock timing (steady_clock) on a shared machine; run.py repeats and reports
// min/median/max. A resolve that fails or a key that changes between repetitions is a FAIL.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "llgo_wasm.h"
#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/resolve.hpp"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what) {
  std::printf("FAIL: %s\n", what.c_str());
  std::exit(1);
}

long parse_count(const char* text, const char* name) {
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 1) fail(std::string(name) + " must be a positive integer, got '" + text + "'");
  return value;
}

const std::vector<std::string> kTargets = {"wasm", "js-wasm", "wasip1", "wasip1-threads", "host"};

// Keeps results alive so the optimiser cannot drop the work.
volatile std::size_t sink;

int bench_resolve(long iterations, long reps) {
  const llgo_wasm::DescriptorSet& descriptors = llgo_wasm::builtin_descriptors();
  std::vector<llgo_wasm::Query> queries;
  for (const auto& name : kTargets) {
    llgo_wasm::Query query;
    query.target = name;
    queries.push_back(query);
  }
  llgo_wasm_driver* driver = nullptr;
  char* error = nullptr;
  if (llgo_wasm_driver_new(&driver, &error) != LLGO_WASM_OK) fail(std::string("llgo_wasm_driver_new: ") + (error ? error : "?"));
  std::vector<std::string> query_json;
  for (const auto& name : kTargets) query_json.push_back("{\"target\":\"" + name + "\"}");

  for (long r = 0; r < reps; r++) {
    auto start = Clock::now();
    for (long i = 0; i < iterations; i++) {
      llgo_wasm::ResolvedTarget target = llgo_wasm::resolve_target(descriptors, queries[i % queries.size()]);
      sink = sink + target.spec.cflags.size();
    }
    double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / double(iterations);
    std::printf("RESULT {\"bench\":\"resolve-cpp\",\"iterations\":%ld,\"us\":%.4f}\n", iterations, us);

    start = Clock::now();
    for (long i = 0; i < iterations; i++) {
      char* result = nullptr;
      if (llgo_wasm_resolve(driver, query_json[i % query_json.size()].c_str(), &result, &error) != LLGO_WASM_OK)
        fail(std::string("llgo_wasm_resolve: ") + (error ? error : "?"));
      sink = sink + std::char_traits<char>::length(result);
      llgo_wasm_string_free(result);
    }
    us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / double(iterations);
    std::printf("RESULT {\"bench\":\"resolve-c\",\"iterations\":%ld,\"us\":%.4f}\n", iterations, us);
  }
  llgo_wasm_driver_free(driver);
  return 0;
}

int bench_cache_key(const std::filesystem::path& dir, long reps) {
  if (!std::filesystem::is_directory(dir)) fail("cache-key: '" + dir.string() + "' is not a directory");
  std::uintmax_t bytes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) bytes += entry.file_size();
  llgo_wasm::Query query;
  query.target = "wasip1";
  const llgo_wasm::ResolvedTarget target = llgo_wasm::resolve_target(llgo_wasm::builtin_descriptors(), query);
  llgo_wasm::CacheKeyRequest request;
  request.toolchain = {{"clang", "bench"}};
  request.package_root = dir;
  std::string first;
  for (long r = 0; r < reps; r++) {
    auto start = Clock::now();
    llgo_wasm::CacheKey key = llgo_wasm::compute_cache_key(target, request);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (r == 0) first = key.hex;
    else if (key.hex != first) fail("cache-key: the key changed between repetitions");
    std::printf("RESULT {\"bench\":\"cache-key\",\"files\":%zu,\"bytes\":%ju,\"ms\":%.4f}\n", key.inputs.size(), bytes, ms);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 4 && std::string(argv[1]) == "resolve")
      return bench_resolve(parse_count(argv[2], "ITERATIONS"), parse_count(argv[3], "REPS"));
    if (argc == 4 && std::string(argv[1]) == "cache-key") return bench_cache_key(argv[2], parse_count(argv[3], "REPS"));
  } catch (const std::exception& error) {
    fail(error.what());
  }
  std::printf("FAIL: usage: bench_driver resolve ITERATIONS REPS | cache-key DIR REPS\n");
  return 1;
}
