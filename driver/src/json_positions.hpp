// Where each value and key of a JSON text starts, by path.
//
// nlohmann::json parses and validates the text but keeps no positions, so this
// second, small pass walks the same (already valid) text and records the line and
// column of every value and every object key under a path such as
// "capabilities/eh/compile" or "build-tags/1". It also finds duplicate keys, which
// nlohmann silently collapses. Path segments escape '~' as "~0" and '/' as "~1".
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {

struct JsonPositions {
  std::map<std::string, Location> values;
  std::map<std::string, Location> keys;

  // The value's position, else the nearest enclosing one, else line 1.
  Location value_at(const std::string& path) const;
  Location key_at(const std::string& path) const;
};

std::string json_path_append(const std::string& path, std::string_view segment);
std::string json_path_append(const std::string& path, std::size_t index);

// Walks valid JSON text; throws DriverError "file:line:col: duplicate key ..." when an
// object repeats a key.
JsonPositions scan_json_positions(std::string_view text, const std::string& file_name);

// Line and column of a byte offset (0-based) in text.
Location location_of_offset(std::string_view text, std::size_t offset, const std::string& file_name);

}  // namespace llgo_wasm::detail
