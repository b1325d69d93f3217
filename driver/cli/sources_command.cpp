// `llgo-wasm sources --dir DIR [--json] [--explain]`: the runtime sources whose //llgo:build
// lines hold for the target.
#include "command_line.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/source_selection.hpp"

namespace llgo_wasm::cli {

using nlohmann::json;

int sources_command(const std::vector<std::string>& words) {
  const Arguments arguments = parse_arguments("sources", words, {"--dir"}, {"--json", "--explain"}, false);
  std::optional<std::string> directory = single(arguments, "--dir");
  if (!directory) throw DriverError("sources: --dir DIR is required (the runtime source directory)");
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  std::vector<SourceDecision> decisions = select_runtime_sources(target, *directory);
  if (arguments.flags.count("--json")) {
    json document = sources_to_json(decisions);
    document["target"] = target.spec.name;
    if (!arguments.flags.count("--explain")) document.erase("decisions");
    std::cout << document.dump(2) << "\n";
  } else if (arguments.flags.count("--explain")) {
    std::cout << "target " << target.spec.name << " (" << target.spec.variant
              << "), tags: " << joined(effective_flags(target.spec).build_tags) << "\n";
    for (const auto& decision : decisions) std::cout << explain(decision) << "\n";
  } else {
    for (const auto& decision : decisions) {
      if (decision.selected) std::cout << decision.file << "\n";
    }
  }
  return 0;
}

}  // namespace llgo_wasm::cli
