// resolved_target_fields.hpp: reading fields of a resolved target (the JSON of
// `llgo-wasm resolve --json`) in the link library, which depends only on that JSON contract.
// A missing or non-string field reads as "", so callers compare against expected values.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace llgo_wasm::resolved_fields {

inline std::string string_field(const nlohmann::json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

inline std::string capability(const nlohmann::json& resolved_target, const char* key) {
  auto capabilities = resolved_target.find("capabilities");
  if (capabilities == resolved_target.end() || !capabilities->is_object()) return {};
  return string_field(*capabilities, key);
}

}  // namespace llgo_wasm::resolved_fields
