// `llgo-wasm cache get|put|has|stats|trim ...`: the cache commands live in llgo-wasm-cache beside
// this program (it links libcurl, which this static binary cannot); exec replaces this process,
// so the exit status is the helper's.
#include "command_line.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::cli {

int cache_command(const std::vector<std::string>& words) {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw DriverError("cache: cannot find this program's directory: " + error.message());
  std::string helper = (self.parent_path() / "llgo-wasm-cache").string();
  std::vector<char*> argv = {helper.data()};
  std::vector<std::string> rest = words;
  for (auto& arg : rest) argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(helper.c_str(), argv.data());
  throw DriverError("cache: cannot run " + helper + ": " + std::strerror(errno) +
                    " (it is built and installed beside llgo-wasm)");
}

}  // namespace llgo_wasm::cli
