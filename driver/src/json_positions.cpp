// See json_positions.hpp. The text is valid JSON when this runs (nlohmann parsed it
// first), so the scanner only follows the structure; it does not diagnose syntax.
#include "json_positions.hpp"

#include <nlohmann/json.hpp>

namespace llgo_wasm {
namespace detail {
namespace {

class PositionScanner {
 public:
  PositionScanner(std::string_view text, const std::string& file_name)
      : text_(text), file_name_(file_name) {}

  JsonPositions scan() {
    skip_whitespace();
    scan_value("");
    return std::move(positions_);
  }

 private:
  Location here() const { return Location{file_name_, line_, column_}; }

  void advance() {
    unsigned char c = static_cast<unsigned char>(text_[offset_++]);
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if ((c & 0xC0) != 0x80) {
      // Count code points: UTF-8 continuation bytes do not start a new column.
      ++column_;
    }
  }

  char peek() const { return offset_ < text_.size() ? text_[offset_] : '\0'; }

  void skip_whitespace() {
    while (offset_ < text_.size() &&
           (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      advance();
    }
  }

  // Returns the decoded string; the cursor is on the opening quote.
  std::string scan_string() {
    std::size_t start = offset_;
    bool escaped = false;
    advance();
    while (peek() != '"') {
      if (peek() == '\\') {
        escaped = true;
        advance();
      }
      advance();
    }
    advance();
    std::string_view token = text_.substr(start, offset_ - start);
    // Only escapes need decoding; keys almost never have any.
    if (!escaped) return std::string(token.substr(1, token.size() - 2));
    return nlohmann::json::parse(token).get<std::string>();
  }

  void scan_value(const std::string& path) {
    positions_.values[path] = here();
    char c = peek();
    if (c == '{') {
      advance();
      std::map<std::string, Location> seen;
      skip_whitespace();
      while (peek() != '}') {
        Location key_location = here();
        std::string key = scan_string();
        auto [previous, inserted] = seen.emplace(key, key_location);
        if (!inserted) {
          throw DriverError(key_location, "duplicate key \"" + key + "\" (first at line " +
                                              std::to_string(previous->second.line) + ")");
        }
        std::string child = json_path_append(path, key);
        positions_.keys[child] = key_location;
        skip_whitespace();
        advance();  // ':'
        skip_whitespace();
        scan_value(child);
        skip_whitespace();
        if (peek() == ',') {
          advance();
          skip_whitespace();
        }
      }
      advance();
    } else if (c == '[') {
      advance();
      skip_whitespace();
      std::size_t index = 0;
      while (peek() != ']') {
        scan_value(json_path_append(path, index++));
        skip_whitespace();
        if (peek() == ',') {
          advance();
          skip_whitespace();
        }
      }
      advance();
    } else if (c == '"') {
      scan_string();
    } else {
      // Number or literal: everything up to a delimiter.
      while (offset_ < text_.size() && peek() != ',' && peek() != '}' && peek() != ']' &&
             peek() != ' ' && peek() != '\t' && peek() != '\n' && peek() != '\r') {
        advance();
      }
    }
  }

  std::string_view text_;
  const std::string& file_name_;
  std::size_t offset_ = 0;
  int line_ = 1;
  int column_ = 1;
  JsonPositions positions_;
};

Location nearest(const std::map<std::string, Location>& map, std::string path,
                 const std::string& fallback_file) {
  for (;;) {
    auto found = map.find(path);
    if (found != map.end()) return found->second;
    if (path.empty()) return Location{fallback_file, 1, 1};
    auto slash = path.rfind('/');
    path = slash == std::string::npos ? "" : path.substr(0, slash);
  }
}

}  // namespace

Location JsonPositions::value_at(const std::string& path) const {
  std::string file = values.empty() ? "" : values.begin()->second.file;
  return nearest(values, path, file);
}

Location JsonPositions::key_at(const std::string& path) const {
  auto found = keys.find(path);
  if (found != keys.end()) return found->second;
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

Location location_of_offset(std::string_view text, std::size_t offset,
                            const std::string& file_name) {
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
