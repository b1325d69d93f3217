// See source_selection.hpp.
#include "llgo_wasm/source_selection.hpp"

#include <algorithm>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "llgo_wasm/build_constraint.hpp"
#include "llgo_wasm/error.hpp"
#include "utf8.hpp"

namespace llgo_wasm {
namespace {

constexpr std::string_view kConstraintPrefix = "//llgo:build";

bool is_runtime_source(const std::filesystem::path& path) {
  auto extension = path.extension().string();
  return extension == ".c" || extension == ".h" || extension == ".S" || extension == ".s";
}

// `tags`: the target's effective build tags (sorted).
SourceDecision decide(const std::vector<std::string>& tags, const std::filesystem::path& path, const std::string& display_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DriverError(display_name + ": cannot read the file");
  SourceDecision decision;
  decision.file = path.filename().generic_string();
  std::string line;
  int number = 0;
  std::optional<BuildConstraint> constraint;
  while (std::getline(in, line)) {
    ++number;
    if (line.compare(0, kConstraintPrefix.size(), kConstraintPrefix) != 0) continue;
    std::string_view rest = std::string_view(line).substr(kConstraintPrefix.size());
    if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\r') continue;  // e.g. //llgo:buildx
    if (constraint) {
      throw DriverError(Location{display_name, number, 1},
                        "a second //llgo:build line (the first is on line " + std::to_string(decision.line) +
                            "); combine them with &&");
    }
    std::size_t start = kConstraintPrefix.size();
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
    std::string expression = line.substr(start);
    while (!expression.empty() && (expression.back() == '\r' || expression.back() == ' ')) expression.pop_back();
    constraint = BuildConstraint::parse(expression, Location{display_name, number, static_cast<int>(start) + 1});
    decision.line = number;
    decision.constraint = expression;
  }
  if (!constraint) {
    throw DriverError(display_name + ": no //llgo:build line; every runtime source states the targets it is built for, "
                                     "e.g. \"//llgo:build wasm && wasip1\" (use \"//llgo:build llgo\" for every target)");
  }
  decision.selected = constraint->evaluate(tags);
  for (const auto& tag : constraint->tags()) {
    decision.tag_values.emplace_back(tag, std::binary_search(tags.begin(), tags.end(), tag));
  }
  return decision;
}

}  // namespace

std::vector<SourceDecision> select_runtime_sources(const ResolvedTarget& target, const std::filesystem::path& directory) {
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) {
    throw DriverError(directory.string() + ": not a directory (pass the runtime source directory with --dir)");
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (!entry.is_regular_file() || !is_runtime_source(entry.path())) continue;
    // Results are JSON, whose strings are UTF-8: refuse such a name here, by name.
    if (!detail::is_valid_utf8(entry.path().filename().string())) {
      throw DriverError(detail::printable_utf8(entry.path().string()) +
                        ": the file name is not valid UTF-8; rename the file (runtime source names are reported as UTF-8)");
    }
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.filename().string() < b.filename().string(); });
  const std::vector<std::string> tags = effective_flags(target.spec).build_tags;
  std::vector<SourceDecision> decisions;
  for (const auto& file : files) decisions.push_back(decide(tags, file, file.string()));
  return decisions;
}

nlohmann::json sources_to_json(const std::vector<SourceDecision>& decisions) {
  nlohmann::json selected = nlohmann::json::array();
  nlohmann::json all = nlohmann::json::array();
  for (const auto& decision : decisions) {
    if (decision.selected) selected.push_back(decision.file);
    nlohmann::json tags = nlohmann::json::object();
    for (const auto& [tag, value] : decision.tag_values) tags[tag] = value;
    all.push_back({{"file", decision.file},
                   {"selected", decision.selected},
                   {"constraint", decision.constraint},
                   {"line", decision.line},
                   {"tags", tags}});
  }
  return {{"selected", selected}, {"decisions", all}};
}

std::string explain(const SourceDecision& decision) {
  std::string out = std::string(decision.selected ? "selected " : "excluded ") + decision.file + ":" +
                    std::to_string(decision.line) + ": " + decision.constraint + "  [";
  for (std::size_t i = 0; i < decision.tag_values.size(); ++i) {
    if (i) out += ' ';
    out += decision.tag_values[i].first + (decision.tag_values[i].second ? "=yes" : "=no");
  }
  return out + "]";
}

}  // namespace llgo_wasm
