// `llgo-wasm targets [--json]`: lists the concrete built-in targets.
#include "command_line.hpp"

#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"

namespace llgo_wasm::cli {

int targets_command(const std::vector<std::string>& words) {
  const Arguments arguments = parse_arguments("targets", words, {}, {"--json"}, false);
  const DescriptorSet& descriptors = builtin_descriptors();
  if (arguments.flags.count("--json")) {
    std::cout << targets_to_json(descriptors).dump(2) << "\n";
    return 0;
  }
  for (const auto& target : descriptors.targets()) {
    std::string selected_by = target.platform_default ? "GOOS=" + target.spec.goos + " GOARCH=" + target.spec.goarch : "";
    for (const auto& [name, value] : target.required_environment) selected_by += " " + name + "=" + value;
    std::string name = target.spec.name;
    std::string variant = target.spec.variant;
    std::cout << name << std::string(16 - std::min<std::size_t>(name.size(), 15), ' ') << variant
              << std::string(8 - std::min<std::size_t>(variant.size(), 7), ' ') << target.spec.triple
              << (selected_by.empty() ? "" : "  (" + selected_by + ")") << "\n";
  }
  return 0;
}

}  // namespace llgo_wasm::cli
