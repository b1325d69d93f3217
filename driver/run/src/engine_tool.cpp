// Finding an engine's tool (see engine_tool.hpp).
#include "llgo_wasm/engine_tool.hpp"

#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "llgo_wasm/child_process.hpp"

namespace llgo_wasm {
namespace {

struct Candidate {
  std::string path;
  std::string source;
  bool explicit_choice = false;
};

// The LLGO_WASM_<VARIABLE> line of the toolchain folder's toolchain.env (what the setup recorded).
std::optional<std::string> recorded_tool(const std::string& folder, const std::string& variable) {
  std::ifstream in(folder + "/toolchain.env");
  const std::string key = "LLGO_WASM_" + variable + "=";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) == 0 && line.size() > key.size()) return line.substr(key.size());
  }
  return std::nullopt;
}

bool is_executable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

}  // namespace

std::string engine_tool_variable(const std::string& tool) {
  std::string variable;
  for (char c : tool) variable += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return variable;
}

std::optional<std::string> first_version_number(const std::string& text) {
  static const std::regex dotted(R"((\d+(?:\.\d+)+))");
  static const std::regex plain(R"((\d+))");
  std::smatch match;
  if (std::regex_search(text, match, dotted) || std::regex_search(text, match, plain)) return match[1].str();
  return std::nullopt;
}

int compare_versions(const std::string& a, const std::string& b) {
  std::stringstream left(a), right(b);
  std::string x, y;
  while (true) {
    bool more_left = static_cast<bool>(std::getline(left, x, '.'));
    bool more_right = static_cast<bool>(std::getline(right, y, '.'));
    if (!more_left && !more_right) return 0;
    unsigned long long u = more_left && !x.empty() ? std::stoull(x) : 0;
    unsigned long long v = more_right && !y.empty() ? std::stoull(y) : 0;
    if (u != v) return u < v ? -1 : 1;
  }
}

EngineToolSearch find_engine_tool(const std::string& tool, const std::string& minimum_version,
                                  const EnvironmentLookup& environment) {
  const std::string variable = engine_tool_variable(tool);
  std::vector<Candidate> candidates;
  if (auto chosen = environment(variable)) {
    candidates.push_back({*chosen, variable, true});
  } else {
    if (auto folder = project_toolchain_dir(environment)) {
      if (auto recorded = recorded_tool(*folder, variable)) candidates.push_back({*recorded, *folder + "/toolchain.env"});
      candidates.push_back({*folder + "/bin/" + tool, "toolchain folder"});
    }
    if (auto on_path = find_on_path(tool, environment)) candidates.push_back({*on_path, "PATH"});
  }
  EngineToolSearch search;
  for (const auto& candidate : candidates) {
    if (!is_executable(candidate.path)) {
      search.findings.push_back(candidate.source + ": " + candidate.path + " does not exist or is not executable");
      if (candidate.explicit_choice) break;
      continue;
    }
    EngineTool found{candidate.path, candidate.source, ""};
    if (!minimum_version.empty()) {
      ChildResult run = run_child_process({candidate.path, "--version"}, true);
      std::string first_line = run.captured_stdout.substr(0, run.captured_stdout.find('\n'));
      std::optional<std::string> version = run.succeeded() ? first_version_number(first_line) : std::nullopt;
      if (!version) {
        search.findings.push_back(candidate.source + ": " + candidate.path + ": `--version` " +
                                  (run.succeeded() ? "printed no version ('" + first_line + "')" : "failed (" + run.describe_failure(tool) + ")"));
        if (candidate.explicit_choice) break;
        continue;
      }
      if (compare_versions(*version, minimum_version) < 0) {
        search.findings.push_back(candidate.source + ": " + candidate.path + " is version " + *version + ", older than " +
                                  minimum_version);
        if (candidate.explicit_choice) break;
        continue;
      }
      found.version = *version;
    }
    search.tool = found;
    return search;
  }
  if (candidates.empty()) search.findings.push_back(variable + " is unset, no toolchain folder, no " + tool + " on PATH");
  search.fix = "set " + variable + "=/path/to/" + tool + (minimum_version.empty() ? "" : " (version >= " + minimum_version + ")") +
               ", put it on PATH, or run tools/setup-toolchain.sh";
  return search;
}

}  // namespace llgo_wasm
