// One descriptor file as a Layer: its identity keys (name, inherits, abstract,
// platform-default, requires-env: never inherited), the descriptor files it records (a
// resolved target loaded again), and a flat map from leaf path ("capabilities/eh/compile",
// "engines/node-wasi/command") to the value and where it was written. Parsing checks JSON
// syntax, duplicate keys, unknown keys (with a did-you-mean), types and enumerated
// spellings against the schema, each reported at file:line:col.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {

struct Leaf {
  nlohmann::json value;                  // scalar, string map, or array for lists
  Location where;                        // of the value
  std::vector<Location> item_locations;  // lists: of each item
  bool list = false;                     // lists append along inherits; anything else overrides
};

using LeafMap = std::map<std::string, Leaf>;

struct Parent {
  std::string reference;  // a descriptor name, or a .json path relative to the file
  Location where;
};

struct Layer {
  std::string file_name;
  std::string name;
  Location name_location;
  bool is_abstract = false;
  bool platform_default = false;
  std::map<std::string, std::string> required_environment;
  Location required_environment_location;
  std::vector<Parent> parents;
  // What a resolved target records about its resolution (the file is `resolve --json` output).
  std::vector<std::string> recorded_files;                  // "descriptor-files"
  std::optional<std::map<std::string, std::string>> recorded_environment;  // "environment"
  LeafMap leaves;                           // inherited keys only
};

Layer parse_layer(const DescriptorSource& source);

}  // namespace llgo_wasm::detail
