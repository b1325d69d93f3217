// `llgo-wasm run`: runs a program of any target under one of its engines (run_command.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm::cli {

extern const char* const kRunUsage;

// The options `run` takes beside the common target options: with a value, and flags.
inline const std::vector<std::string> kRunValueOptions = {"--engine"};
inline const std::vector<std::string> kRunFlagOptions = {"--print-command", "--json", "--list-engines"};

// `run`'s words split at the program: the options before it, and the program with its arguments
// (everything from the first word that is no option, or after "--"; none of it is read as an
// option of llgo-wasm).
struct RunWords {
  std::vector<std::string> options;
  std::vector<std::string> program_and_arguments;
};
RunWords split_run_words(const std::vector<std::string>& words);

struct RunRequest {
  Query query;
  bool target_named = false;  // --target, --goos or --goarch was given (else the program says)
  std::optional<std::string> engine;
  bool print_command = false;
  bool json = false;
  bool list_engines = false;
  std::vector<std::string> program_and_arguments;
};

// Runs the program (this process becomes the engine: its output and exit status are the
// program's), or prints the command or the engines. Throws DriverError for what the user must fix.
int run_command(const RunRequest& request);

}  // namespace llgo_wasm::cli
