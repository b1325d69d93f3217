// The run-time part of an engine command (target.hpp): the words standing for the program's
// environment. {program} and {root} are known before a run; the environment only when the engine
// starts, so whoever starts it (llgo-wasm run, tests/harness/check_run) expands these words.
#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

std::vector<std::string> expand_environment_words(const std::vector<std::string>& command,
                                                  const std::vector<std::string>& environment) {
  std::vector<std::string> words;
  words.reserve(command.size());
  for (const auto& word : command) {
    if (word.find(kEnvironmentPlaceholder) == std::string::npos) {
      words.push_back(word);
      continue;
    }
    for (const auto& variable : environment) words.push_back(substitute(word, kEnvironmentPlaceholder, variable));
  }
  return words;
}

}  // namespace llgo_wasm
