// A Query from the C API's JSON (see resolve.hpp).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/resolve.hpp"
#include "suggest.hpp"

namespace llgo_wasm {

using nlohmann::json;

Query query_from_json(const json& value) {
  if (!value.is_object()) throw DriverError("the query must be a JSON object");
  static const std::vector<std::string> kKeys = {"target", "goos", "goarch", "context", "stacks", "stack_size", "env",
                                                 "descriptor_path"};
  Query query;
  for (const auto& [key, member] : value.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      throw DriverError("the query has unknown key \"" + key + "\"" + detail::did_you_mean(key, kKeys) +
                        "; known keys: " + detail::join(kKeys));
    }
    if (key == "env") {
      if (!member.is_object()) throw DriverError("query.env must be an object of strings");
      for (const auto& [name, setting] : member.items()) {
        if (!setting.is_string()) throw DriverError("query.env." + name + " must be a string");
        query.environment[name] = setting.get<std::string>();
      }
      continue;
    }
    if (key == "descriptor_path") {
      if (!member.is_array()) throw DriverError("query.descriptor_path must be a list of directories");
      for (const auto& directory : member) {
        if (!directory.is_string()) throw DriverError("query.descriptor_path must be a list of directories");
        query.descriptor_search_path.push_back(directory.get<std::string>());
      }
      continue;
    }
    if (member.is_null()) continue;
    if (!member.is_string()) throw DriverError("query." + key + " must be a string or null");
    std::string text = member.get<std::string>();
    if (key == "target") query.target = text;
    if (key == "goos") query.goos = text;
    if (key == "goarch") query.goarch = text;
    if (key == "context") query.context = text;
    if (key == "stacks") query.stacks = text;
    if (key == "stack_size") query.stack_size = text;
  }
  return query;
}

}  // namespace llgo_wasm
