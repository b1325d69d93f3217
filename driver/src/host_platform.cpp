// The platform this driver was compiled for: the host descriptor resolves to it.
// Decided by the compiler's predefined macros, so a cross-built driver describes the
// machine it runs on, and the data model is measured with sizeof, not assumed.
#include <sys/types.h>

#include "llgo_wasm/descriptors.hpp"

namespace llgo_wasm {
namespace {

constexpr const char* kHostGoarch =
#if defined(__x86_64__)
    "amd64";
#elif defined(__aarch64__)
    "arm64";
#elif defined(__i386__)
    "386";
#elif defined(__arm__)
    "arm";
#elif defined(__riscv) && __riscv_xlen == 64
    "riscv64";
#else
#error "llgo-wasm: unknown host architecture; add it to host_platform.cpp"
#endif

constexpr const char* kHostLlvmArch =
#if defined(__x86_64__)
    "x86_64";
#elif defined(__aarch64__)
    "aarch64";
#elif defined(__i386__)
    "i686";
#elif defined(__arm__)
    "arm";
#else
    "riscv64";
#endif

constexpr const char* kHostGoos =
#if defined(__linux__)
    "linux";
#elif defined(__APPLE__)
    "darwin";
#elif defined(__FreeBSD__)
    "freebsd";
#else
#error "llgo-wasm: unknown host operating system; add it to host_platform.cpp"
#endif

constexpr const char* kHostTripleRest =
#if defined(__linux__) && defined(__GLIBC__)
    "-unknown-linux-gnu";
#elif defined(__linux__)
    "-unknown-linux-musl";
#elif defined(__APPLE__)
    "-apple-darwin";
#else
    "-unknown-freebsd";
#endif

}  // namespace

const HostPlatform& host_platform() {
  static const HostPlatform platform{
      .goos = kHostGoos,
      .goarch = kHostGoarch,
      .triple = std::string(kHostLlvmArch) + kHostTripleRest,
      .data_model = {static_cast<int>(sizeof(void*)), static_cast<int>(sizeof(long)),
                     static_cast<int>(sizeof(ssize_t))},
  };
  return platform;
}

}  // namespace llgo_wasm
