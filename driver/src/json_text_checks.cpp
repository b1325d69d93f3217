// See json_text_checks.hpp.
#include "json_text_checks.hpp"

#include <cstdio>

#include "json_positions.hpp"

namespace llgo_wasm::detail {

void check_json_text_limits(std::string_view text, const std::string& file_name, const JsonTextLimits& limits) {
  if (limits.max_bytes != 0 && text.size() > limits.max_bytes) {
    throw DriverError(location_of_offset(text, limits.max_bytes, file_name),
                      std::string(limits.what) + " may be at most " + std::to_string(limits.max_bytes) +
                          " bytes (the driver's limit); this one goes on past here");
  }
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limits.max_depth) {
        throw DriverError(location_of_offset(text, i, file_name),
                          "JSON nested deeper than " + std::to_string(limits.max_depth) + " levels (the limit for " +
                              std::string(limits.what) + "); flatten this value");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

DriverError json_syntax_error(const nlohmann::json::parse_error& error, std::string_view text,
                              const std::string& file_name) {
  // nlohmann reports the byte it stopped at (1-based), which is the offending one.
  std::size_t offset = error.byte == 0 ? 0 : error.byte - 1;
  std::string detail = error.what();
  auto colon = detail.find(": ", detail.find("parse error"));
  if (colon != std::string::npos) detail = detail.substr(colon + 2);
  // "...; last read: '<text>'[; expected X]": the quoted text may hold a whole line of the file.
  auto last_read = detail.find("; last read: '");
  if (last_read != std::string::npos) {
    auto expected = detail.rfind("; expected ");
    std::string rest = expected != std::string::npos && expected > last_read ? detail.substr(expected) : "";
    detail = detail.substr(0, last_read) + rest;
    unsigned char c = offset < text.size() ? static_cast<unsigned char>(text[offset]) : 0;
    if (c > 0x20 && c < 0x7f) {
      detail += std::string(" (at '") + static_cast<char>(c) + "')";
    } else if (c >= 0x7f) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", c);
      detail += std::string(" (at byte ") + byte + ")";
    }
  }
  return DriverError(location_of_offset(text, offset, file_name), "JSON syntax error: " + detail);
}

nlohmann::json parse_json_text(std::string_view text, const std::string& file_name) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw json_syntax_error(error, text, file_name);
  } catch (const nlohmann::json::exception& error) {
    // "[json.exception.out_of_range.406] number overflow parsing '1e999'"
    std::string detail = error.what();
    std::size_t offset = 0;
    const auto quote = detail.find('\'');
    const auto end = quote == std::string::npos ? std::string::npos : detail.find('\'', quote + 1);
    if (end != std::string::npos) {
      const auto found = text.find(detail.substr(quote + 1, end - quote - 1));
      if (found != std::string_view::npos) offset = found;
    }
    const auto bracket = detail.find("] ");
    if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw DriverError(location_of_offset(text, offset, file_name),
                      "JSON value out of range: " + detail + " (a number must fit in a double)");
  }
}

}  // namespace llgo_wasm::detail
