// Where each value and key of a JSON text starts, by path.
//
// nlohmann::json parses and validates the text but keeps no positions, so this
// second, small pass walks the same (already valid) text and records the line and
// column of every value and every object key, looked up by a path such as
// "capabilities/eh/compile" or "build-tags/1". It also finds duplicate keys, which
// nlohmann silently collapses. Path segments escape '~' as "~0" and '/' as "~1".
//
// The scan is iterative (an explicit stack, never the call stack) and keeps one small
// node per value, so its time and memory are linear in the text: a path is walked node
// by node when it is looked up, never built for every value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {

class JsonPositions {
 public:
  // The value's position, else the nearest enclosing one, else line 1.
  Location value_at(const std::string& path) const;
  // The key's position when the path names an object member, else value_at(path).
  Location key_at(const std::string& path) const;

 private:
  friend class PositionScanner;
  struct Node {
    int line = 0;
    int column = 0;
    int key_line = 0;    // object members only
    int key_column = 0;
    bool is_object = false;
    std::string key;                      // object members only
    std::vector<std::uint32_t> children;  // arrays: in order; objects: sorted by key
  };
  // The deepest node on the path, and whether the whole path was found.
  std::pair<const Node*, bool> walk(const std::string& path) const;
  Location at(int line, int column) const { return Location{file_name_, line, column}; }

  std::string file_name_;
  std::vector<Node> nodes_;  // nodes_[0] is the root value
};

std::string json_path_append(const std::string& path, std::string_view segment);
std::string json_path_append(const std::string& path, std::size_t index);

// Walks valid JSON text; throws DriverError "file:line:col: duplicate key ..." when an
// object repeats a key. Any other text is walked without reading out of bounds.
JsonPositions scan_json_positions(std::string_view text, const std::string& file_name);

// Line and column of a byte offset (0-based) in text.
Location location_of_offset(std::string_view text, std::size_t offset, const std::string& file_name);

}  // namespace llgo_wasm::detail
