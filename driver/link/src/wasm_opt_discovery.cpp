// wasm-opt discovery and version pinning (see wasm_opt_discovery.hpp).
#include "llgo_wasm/wasm_opt_discovery.hpp"

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "llgo_wasm/child_process.hpp"

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;

bool is_executable_file(const std::string& path) {
  std::error_code ignored;
  return fs::is_regular_file(path, ignored) && access(path.c_str(), X_OK) == 0;
}

struct Candidate {
  std::string path;
  std::string source;
  bool explicit_choice = false;
};

// "found" line for the error message, or a WasmOptTool when usable.
struct Probe {
  std::optional<WasmOptTool> tool;
  std::string finding;
};

Probe probe_candidate(const Candidate& candidate, int minimum_version) {
  Probe probe;
  if (!is_executable_file(candidate.path)) {
    probe.finding = candidate.source + ": " + candidate.path + " does not exist or is not executable";
    return probe;
  }
  ChildResult run = run_child_process({candidate.path, "--version"}, true);
  std::string first_line = run.captured_stdout.substr(0, run.captured_stdout.find('\n'));
  if (!run.succeeded()) {
    probe.finding = candidate.source + ": " + candidate.path + ": `--version` failed (" +
                    run.describe_failure("wasm-opt") + ")";
    return probe;
  }
  std::optional<int> version = parse_wasm_opt_version(first_line);
  if (!version) {
    probe.finding = candidate.source + ": " + candidate.path + ": cannot read a version from '" + first_line + "'";
    return probe;
  }
  if (*version < minimum_version) {
    probe.finding = candidate.source + ": " + candidate.path + " is Binaryen " + std::to_string(*version) +
                    ", too old (Asyncify over legacy EH and --translate-to-exnref need >= " +
                    std::to_string(minimum_version) + ")";
    return probe;
  }
  probe.tool = WasmOptTool{candidate.path, candidate.source, first_line, *version};
  return probe;
}

}  // namespace

EnvironmentLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

std::optional<int> parse_wasm_opt_version(const std::string& version_output) {
  static const std::regex version_pattern(R"(version[ _]([0-9]+))");
  std::smatch match;
  if (!std::regex_search(version_output, match, version_pattern)) return std::nullopt;
  try {
    return std::stoi(match[1].str());
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> project_toolchain_dir(const EnvironmentLookup& environment) {
  if (auto dir = environment("LLGO_WASM_TOOLCHAIN_DIR")) return dir;
  if (auto cache = environment("XDG_CACHE_HOME")) return *cache + "/llgo-wasm/toolchain-v1";
  if (auto home = environment("HOME")) return *home + "/.cache/llgo-wasm/toolchain-v1";
  return std::nullopt;
}

std::optional<std::string> find_on_path(const std::string& name, const EnvironmentLookup& environment) {
  if (name.find('/') != std::string::npos) {
    return is_executable_file(name) ? std::optional<std::string>(name) : std::nullopt;
  }
  auto path = environment("PATH");
  if (!path) return std::nullopt;
  std::stringstream directories(*path);
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    if (directory.empty()) directory = ".";
    std::string candidate = directory + "/" + name;
    if (is_executable_file(candidate)) return candidate;
  }
  return std::nullopt;
}

WasmOptTool discover_wasm_opt(const EnvironmentLookup& environment, int minimum_version) {
  std::vector<Candidate> candidates;
  if (auto explicit_path = environment("WASMOPT")) {
    candidates.push_back({*explicit_path, "WASMOPT", true});
  } else if (auto root = environment("BINARYEN_ROOT")) {
    candidates.push_back({*root + "/bin/wasm-opt", "BINARYEN_ROOT", true});
  } else {
    if (auto on_path = find_on_path("wasm-opt", environment)) candidates.push_back({*on_path, "PATH", false});
    if (auto setup = project_toolchain_dir(environment)) {
      candidates.push_back({*setup + "/bin/wasm-opt", "setup folder", false});
    }
  }
  std::vector<std::string> findings;
  for (const auto& candidate : candidates) {
    Probe probe = probe_candidate(candidate, minimum_version);
    if (probe.tool) return *probe.tool;
    findings.push_back(probe.finding);
    if (candidate.explicit_choice) break;  // an explicit choice is never silently replaced
  }
  std::string message = "no usable wasm-opt (Binaryen >= " + std::to_string(minimum_version) +
                        ") for the P1 post-link step.\n";
  if (findings.empty()) message += "  nothing found: WASMOPT and BINARYEN_ROOT are unset, no wasm-opt on PATH\n";
  for (const auto& finding : findings) message += "  found " + finding + "\n";
  message += "  fix: point WASMOPT=/path/to/wasm-opt (or BINARYEN_ROOT=/path/to/binaryen) at Binaryen >= " +
             std::to_string(minimum_version) + ", or run the project's toolchain setup";
  throw WasmOptDiscoveryError(message);
}

}  // namespace llgo_wasm
