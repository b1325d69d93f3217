// UTF-8 checks for text that leaves the library as JSON (file names, mostly): JSON
// strings must be UTF-8, and a name that is not should be refused by name, not by a JSON
// library's message about a byte index.
#pragma once

#include <string>
#include <string_view>

namespace llgo_wasm::detail {

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// The text with every byte that is not part of well-formed UTF-8 written as \xNN, for messages.
std::string printable_utf8(std::string_view text);

}  // namespace llgo_wasm::detail
