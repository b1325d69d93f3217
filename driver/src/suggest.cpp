// See suggest.hpp.
#include "suggest.hpp"

#include <algorithm>

namespace llgo_wasm::detail {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
// two adjacent characters each cost 1 ("wsam" is one edit from "wasm").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> before_previous(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], before_previous[j - 2] + 1);
      }
    }
    std::swap(before_previous, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

}  // namespace

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    // The distance is at least the difference in length; past a third of the longer word
    // no distance qualifies, so skip the quadratic computation (a huge unknown word stays cheap).
    std::size_t difference = word.size() > candidate.size() ? word.size() - candidate.size() : candidate.size() - word.size();
    bool contains = candidate.find(word) != std::string::npos || word.find(candidate) != std::string_view::npos;
    if (difference * 3 > std::max(word.size(), candidate.size()) && !contains) continue;
    std::size_t distance = edit_distance(word, candidate);
    if (best.empty() || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  if (best.empty()) return best;
  std::size_t longer = std::max(word.size(), best.size());
  bool contains = best.find(word) != std::string::npos || std::string(word).find(best) != std::string::npos;
  if (best_distance * 3 <= longer || (contains && !word.empty())) return best;
  return "";
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string match = closest_match(word, candidates);
  return match.empty() ? "" : " (did you mean \"" + match + "\"?)";
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

}  // namespace llgo_wasm::detail
