// Figures for bench/ (not a test): the cost of in-library resolution with the
// descriptors already loaded, of loading them, and cache-key hashing throughput,
// all in process CPU time.
//
//   llgo_wasm_driver_bench [FILE...]   FILEs are hashed as one package's inputs
//
// Prints one "name: value unit" line per figure.
#include <ctime>
#include <cstdio>
#include <filesystem>

#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/resolve.hpp"

namespace {

// Process CPU time, so that other work on a shared machine does not inflate figures.
double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

template <typename Body>
double seconds_per_call(int iterations, Body&& body) {
  double start = cpu_seconds();
  for (int i = 0; i < iterations; ++i) body();
  return (cpu_seconds() - start) / iterations;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace llgo_wasm;
  double load = seconds_per_call(20, [] { DescriptorSet::load(builtin_descriptor_sources()); });
  std::printf("load_builtin_descriptors: %.1f us\n", load * 1e6);

  const DescriptorSet& descriptors = builtin_descriptors();
  Query named;
  named.target = "wasm";
  Query platform;
  platform.environment = {{"GOOS", "wasip1"}, {"GOARCH", "wasm"}, {"LLGO_WASI_THREADS", "1"}};
  std::size_t sink = 0;
  double by_name = seconds_per_call(20000, [&] { sink += resolve_target(descriptors, named).spec.triple.size(); });
  double by_platform = seconds_per_call(20000, [&] { sink += resolve_target(descriptors, platform).spec.triple.size(); });
  std::printf("resolve_by_name: %.2f us\n", by_name * 1e6);
  std::printf("resolve_by_goos_goarch: %.2f us\n", by_platform * 1e6);

  if (argc > 1) {
    std::uintmax_t bytes = 0;
    CacheKeyRequest request;
    request.package_root = "/";
    for (int i = 1; i < argc; ++i) {
      std::filesystem::path file = std::filesystem::absolute(argv[i]);
      bytes += std::filesystem::file_size(file);
      request.files.push_back(file.string());
    }
    ResolvedTarget target = resolve_target(descriptors, named);
    double hashing = seconds_per_call(3, [&] { sink += compute_cache_key(target, request).hex.size(); });
    std::printf("cache_key_throughput: %.1f MB/s\n", static_cast<double>(bytes) / hashing / 1e6);
  }
  return sink == 0 ? 1 : 0;
}
