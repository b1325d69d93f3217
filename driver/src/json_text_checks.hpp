// Checks on untrusted JSON text around nlohmann's parser: the size and nesting limits
// (input_limits.hpp), checked before parsing so that no text costs more than the limits
// allow, and syntax-error messages that name file:line:col and the offending character but
// never echo the text itself (nlohmann's "last read: '...'" can quote a whole line).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {

struct JsonTextLimits {
  std::size_t max_bytes;  // 0: no size limit
  std::size_t max_depth;
  std::string_view what;  // "a target descriptor", "a request": for messages
};

// Throws DriverError at the first byte past max_bytes, or at the '[' or '{' that opens
// level max_depth + 1. One linear pass; works on any text, valid JSON or not.
void check_json_text_limits(std::string_view text, const std::string& file_name, const JsonTextLimits& limits);

// nlohmann's parse error as "file:line:col: JSON syntax error: ...".
DriverError json_syntax_error(const nlohmann::json::parse_error& error, std::string_view text,
                              const std::string& file_name);

// json::parse, with every error of nlohmann's parser a DriverError at file:line:col: syntax
// errors, and a number too large for a double (out_of_range 406, which carries no position:
// it is found in the text by the literal nlohmann names).
nlohmann::json parse_json_text(std::string_view text, const std::string& file_name);

}  // namespace llgo_wasm::detail
