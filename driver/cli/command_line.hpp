// What the subcommands of `llgo-wasm` share: the common target options (a Query) parsed from the
// words after the command's name, the help text that lists them, and each subcommand's entry
// (one file each: targets_command.cpp, resolve_command.cpp, ...; main.cpp only dispatches).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm::cli {

extern const char* const kCommonHelp;

// Options after the command name, split into the common target options (a Query)
// and the command's own.
struct Arguments {
  Query query;
  std::map<std::string, std::vector<std::string>> values;  // option -> values, in order
  std::map<std::string, bool> flags;                       // boolean options
  std::vector<std::string> rest;                           // for `link`
};

// The common options, the command's `value_options` and `flag_options`; anything else is an
// error naming `command`, or with `pass_unknown` goes to `rest` (as does everything from "--" on).
Arguments parse_arguments(const std::string& command, const std::vector<std::string>& raw,
                          const std::vector<std::string>& value_options, const std::vector<std::string>& flag_options,
                          bool pass_unknown);

// The option's value, if given; an error if given more than once.
std::optional<std::string> single(const Arguments& arguments, const std::string& option);
// Every value of the option, in order.
std::vector<std::string> all(const Arguments& arguments, const std::string& option);
std::string joined(const std::vector<std::string>& items, const std::string& separator = " ");

// The subcommands: each takes the words after its name and returns the exit status; bad input
// throws DriverError.
int targets_command(const std::vector<std::string>& words);
int resolve_command(const std::vector<std::string>& words);
int sources_command(const std::vector<std::string>& words);
int cache_key_command(const std::vector<std::string>& words);
int link_command(const std::vector<std::string>& words);     // driver/link, when built
int run_options_command(const std::vector<std::string>& words);  // run_options.cpp
int cache_command(const std::vector<std::string>& words);    // execs llgo-wasm-cache

}  // namespace llgo_wasm::cli
