// "Did you mean ...?" for unknown names: the closest candidate by edit distance.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace llgo_wasm::detail {

// The candidate closest to `word` (edit distance counting an adjacent swap as one edit), if it is close enough to
// be a plausible typo (at most a third of the longer word's length, and at least 1
// allowed edit when the candidate contains the word or vice versa); else "".
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean \"x\"?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c"
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace llgo_wasm::detail
