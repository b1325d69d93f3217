// See json_positions.hpp. The text is valid JSON when this runs (nlohmann parsed it
// first), so the scanner only follows the structure; it does not diagnose syntax. On
// other text it still stops at the end and makes progress on every step.
#include "json_positions.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace llgo_wasm {
namespace detail {

class PositionScanner {
 public:
  PositionScanner(std::string_view text, const std::string& file_name) : text_(text) {
    positions_.file_name_ = file_name;
  }

  JsonPositions scan() {
    skip_whitespace();
    if (!at_end()) begin_value(kNoParent, std::string(), 0, 0);
    while (!open_.empty() && (skip_whitespace(), !at_end())) {
      // No reference into open_ or nodes_ survives begin_value, which may grow both.
      const bool in_object = open_.back().is_object;
      const char c = peek();
      if (c == ',') {
        advance();
      } else if (c == (in_object ? '}' : ']')) {
        advance();
        close_innermost();
      } else if (!in_object) {
        begin_value(open_.back().node, std::string(), 0, 0);
      } else if (c != '"') {
        advance();  // not JSON; keep going
      } else {
        int key_line = line_;
        int key_column = column_;
        std::string key = scan_string();
        auto [previous, inserted] = open_.back().seen.emplace(key, key_line);
        if (!inserted) {
          throw DriverError(Location{positions_.file_name_, key_line, key_column},
                            "duplicate key \"" + key + "\" (first at line " + std::to_string(previous->second) + ")");
        }
        skip_whitespace();
        if (peek() == ':') advance();
        skip_whitespace();
        begin_value(open_.back().node, std::move(key), key_line, key_column);
      }
    }
    return std::move(positions_);
  }

 private:
  static constexpr std::uint32_t kNoParent = UINT32_MAX;

  struct OpenContainer {
    std::uint32_t node;
    bool is_object;
    std::map<std::string, int> seen;  // objects: key -> line of its first occurrence
  };

  bool at_end() const { return offset_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[offset_]; }

  void advance() {
    if (at_end()) return;
    unsigned char c = static_cast<unsigned char>(text_[offset_++]);
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if ((c & 0xC0) != 0x80) {
      // Count code points: UTF-8 continuation bytes do not start a new column.
      ++column_;
    }
  }

  void skip_whitespace() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r') advance();
  }

  // Returns the decoded string; the cursor is on the opening quote.
  std::string scan_string() {
    std::size_t start = offset_;
    bool escaped = false;
    advance();
    while (!at_end() && peek() != '"') {
      if (peek() == '\\') {
        escaped = true;
        advance();
      }
      advance();
    }
    bool closed = !at_end();
    advance();
    std::string_view token = text_.substr(start, offset_ - start);
    // Only escapes need decoding; keys almost never have any.
    if (!escaped || !closed) return std::string(token.substr(1, token.size() - (closed ? 2 : 1)));
    try {
      return nlohmann::json::parse(token).get<std::string>();
    } catch (const nlohmann::json::exception&) {
      return std::string(token);  // not JSON: the raw token is as good a key as any
    }
  }

  void begin_value(std::uint32_t parent, std::string key, int key_line, int key_column) {
    auto index = static_cast<std::uint32_t>(positions_.nodes_.size());
    JsonPositions::Node node;
    node.line = line_;
    node.column = column_;
    node.key_line = key_line;
    node.key_column = key_column;
    node.key = std::move(key);
    const char c = peek();
    node.is_object = c == '{';
    positions_.nodes_.push_back(std::move(node));
    if (parent != kNoParent) positions_.nodes_[parent].children.push_back(index);
    if (c == '{' || c == '[') {
      advance();
      open_.push_back({index, c == '{', {}});
    } else if (c == '"') {
      scan_string();
    } else {
      // Number or literal: everything up to a delimiter, and at least one character.
      std::size_t start = offset_;
      while (!at_end() && peek() != ',' && peek() != '}' && peek() != ']' && peek() != ' ' && peek() != '\t' &&
             peek() != '\n' && peek() != '\r') {
        advance();
      }
      if (offset_ == start) advance();
    }
  }

  void close_innermost() {
    JsonPositions::Node& container = positions_.nodes_[open_.back().node];
    if (open_.back().is_object) {
      const auto& nodes = positions_.nodes_;
      std::sort(container.children.begin(), container.children.end(),
                [&](std::uint32_t a, std::uint32_t b) { return nodes[a].key < nodes[b].key; });
    }
    open_.pop_back();
  }

  std::string_view text_;
  std::size_t offset_ = 0;
  int line_ = 1;
  int column_ = 1;
  std::vector<OpenContainer> open_;  // the containers around the cursor, outermost first
  JsonPositions positions_;
};

namespace {

// "a~1b" -> "a/b", "a~0b" -> "a~b".
std::string unescape_segment(std::string_view segment) {
  std::string out;
  for (std::size_t i = 0; i < segment.size(); ++i) {
    if (segment[i] == '~' && i + 1 < segment.size() && (segment[i + 1] == '0' || segment[i + 1] == '1')) {
      out += segment[++i] == '0' ? '~' : '/';
    } else {
      out += segment[i];
    }
  }
  return out;
}

}  // namespace

std::pair<const JsonPositions::Node*, bool> JsonPositions::walk(const std::string& path) const {
  if (nodes_.empty()) return {nullptr, false};
  const Node* node = &nodes_[0];
  if (path.empty()) return {node, true};
  std::size_t start = 0;
  for (;;) {
    std::size_t slash = path.find('/', start);
    std::string segment =
        unescape_segment(std::string_view(path).substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    const Node* child = nullptr;
    if (node->is_object) {
      auto found = std::lower_bound(node->children.begin(), node->children.end(), segment,
                                    [&](std::uint32_t index, const std::string& key) { return nodes_[index].key < key; });
      if (found != node->children.end() && nodes_[*found].key == segment) child = &nodes_[*found];
    } else if (!segment.empty() && segment.size() < 10 &&
               segment.find_first_not_of("0123456789") == std::string::npos) {
      std::size_t index = std::stoul(segment);
      if (index < node->children.size()) child = &nodes_[node->children[index]];
    }
    if (!child) return {node, false};
    node = child;
    if (slash == std::string::npos) return {node, true};
    start = slash + 1;
  }
}

Location JsonPositions::value_at(const std::string& path) const {
  const Node* node = walk(path).first;
  return node ? at(node->line, node->column) : at(1, 1);
}

Location JsonPositions::key_at(const std::string& path) const {
  auto [node, found] = walk(path);
  if (found && node->key_line > 0) return at(node->key_line, node->key_column);
  return value_at(path);
}

std::string json_path_append(const std::string& path, std::string_view segment) {
  std::string out = path.empty() ? std::string() : path + "/";
  for (char c : segment) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string json_path_append(const std::string& path, std::size_t index) {
  return json_path_append(path, std::to_string(index));
}

JsonPositions scan_json_positions(std::string_view text, const std::string& file_name) {
  return PositionScanner(text, file_name).scan();
}

Location location_of_offset(std::string_view text, std::size_t offset, const std::string& file_name) {
  Location where{file_name, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++where.line;
      where.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++where.column;
    }
  }
  return where;
}

}  // namespace detail
}  // namespace llgo_wasm
