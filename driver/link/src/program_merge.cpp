// Commands of the post-link merge (see program_merge.hpp).
#include "llgo_wasm/program_merge.hpp"

#include <filesystem>
#include <unistd.h>

namespace llgo_wasm {

std::vector<std::string> binaryen_feature_flags(const std::vector<std::string>& features) {
  std::vector<std::string> flags;
  for (const auto& feature : features) flags.push_back("--enable-" + feature);
  return flags;
}

std::vector<std::string> wasm_merge_command(const ProgramMerge& merge, const std::string& wasm_merge,
                                            const std::string& program, const std::string& merged) {
  std::vector<std::string> command = {wasm_merge};
  for (const auto& flag : binaryen_feature_flags(merge.features)) command.push_back(flag);
  command.push_back(program);
  command.emplace_back(kMergedProgramName);
  for (const auto& module : merge.modules) {
    command.push_back(module.source);
    command.push_back(module.name);
  }
  command.push_back("-o");
  command.push_back(merged);
  return command;
}

std::optional<std::string> remove_internal_exports_flag(const ProgramMerge& merge) {
  if (merge.internal_exports.empty()) return std::nullopt;
  std::string patterns;
  for (const auto& pattern : merge.internal_exports) patterns += (patterns.empty() ? "" : ",") + pattern;
  return "--remove-exports=" + patterns;
}

std::optional<std::string> binaryen_tool_beside(const std::string& wasm_opt, const std::string& name) {
  std::filesystem::path tool = std::filesystem::path(wasm_opt).parent_path() / name;
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(tool, ignored) || access(tool.c_str(), X_OK) != 0) return std::nullopt;
  return tool.string();
}

}  // namespace llgo_wasm
