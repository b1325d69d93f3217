// See utf8.hpp.
#include "utf8.hpp"

#include <cstdio>

namespace llgo_wasm::detail {
namespace {

// Length of the well-formed sequence starting at text[i], or 0.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
  auto continuation = [&](std::size_t k, unsigned low = 0x80, unsigned high = 0xBF) {
    return byte(k) >= low && byte(k) <= high;
  };
  unsigned lead = byte(0);
  if (lead < 0x80) return i < text.size() ? 1 : 0;
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
  if (lead == 0xE0) return continuation(1, 0xA0) && continuation(2) ? 3 : 0;
  if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) return continuation(1) && continuation(2) ? 3 : 0;
  if (lead == 0xED) return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0;  // no surrogates
  if (lead == 0xF0) return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0;
  if (lead >= 0xF1 && lead <= 0xF3) return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
  if (lead == 0xF4) return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0;
  return 0;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = sequence_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string printable_utf8(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = sequence_length(text, i);
    if (length == 0) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += escaped;
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace llgo_wasm::detail
