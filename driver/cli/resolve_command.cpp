// `llgo-wasm resolve [--json] [--output NAME]`: the resolved target, as text or as the JSON that
// loads back as a target.
#include "command_line.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/output_naming.hpp"
#include "llgo_wasm/resolve.hpp"

namespace llgo_wasm::cli {

namespace {

using nlohmann::json;

// The resolved target as text: one line per field of its JSON form (the same fields, in the
// same order, objects walked into), lists space-separated.
void print_fields(const json& object, const std::string& prefix, std::ostream& out) {
  for (const auto& [key, value] : object.items()) {
    std::string label = prefix.empty() ? key : prefix + "." + key;
    if (label == "format-version") continue;
    if (value.is_object() && !value.empty()) {
      print_fields(value, label, out);
      continue;
    }
    std::string text;
    if (value.is_array()) {
      for (const auto& item : value) text += (text.empty() ? "" : " ") + (item.is_string() ? item.get<std::string>() : item.dump());
    } else if (!value.is_object()) {
      text = value.is_string() ? value.get<std::string>() : value.dump();
    }
    out << label << std::string(label.size() < 32 ? 32 - label.size() : 1, ' ') << text << "\n";
  }
}

}  // namespace

int resolve_command(const std::vector<std::string>& words) {
  const Arguments arguments = parse_arguments("resolve", words, {"--output"}, {"--json"}, false);
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  std::optional<std::string> output = single(arguments, "--output");
  std::optional<OutputName> name;
  if (output) name = name_output(target.spec, *output);
  if (arguments.flags.count("--json")) {
    json document = target_to_json(target);
    if (name) document["output-file"] = {{"path", name->path}, {"format", to_string(name->format)}};
    std::cout << document.dump(2) << "\n";
  } else {
    print_fields(target_to_json(target), "", std::cout);
    if (name) std::cout << "output-file                     " << name->path << " (" << to_string(name->format) << ")\n";
  }
  return 0;
}

}  // namespace llgo_wasm::cli
