// llgo-wasm: the driver's command line.
//
//   llgo-wasm targets   [--json]
//   llgo-wasm resolve   [--json] [--output NAME]
//   llgo-wasm sources   --dir DIR [--json] [--explain]
//   llgo-wasm cache-key --package-root DIR [--file F]... [--dep-key K]... [--toolchain-id K=V]... [--flag F]... [--json] [--explain]
//   llgo-wasm link      ...   (driver/link, when built)
//   llgo-wasm run       [--engine E] [--print-command] PROGRAM [ARG...] | --list-engines   (run_command.cpp)
//   llgo-wasm cache     get|put|has|stats|trim ...   (runs llgo-wasm-cache beside this program)
//
// Common options (any subcommand): --target NAME|PATH.json (also Go's -target),
// --goos, --goarch, --context, --stacks, --stack-size, --env K=V. GOOS, GOARCH, LLGO_WASI_THREADS,
// LLGO_WASM_CONTEXT, LLGO_WASM_STACKS and LLGO_WASM_STACK_SIZE are read from the environment; the
// options override them.
// Bad input prints one message on stderr and exits 2. Each subcommand lives in its own file
// (command_line.hpp lists them); this one only dispatches.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_line.hpp"
#include "llgo_wasm/error.hpp"

namespace {

using nlohmann::json;
using namespace llgo_wasm;
using namespace llgo_wasm::cli;

struct Command {
  const char* name;
  const char* summary;
  const char* usage;
  int (*entry)(const std::vector<std::string>& words);  // the words after the name
  bool own_help;  // reads --help itself (else the dispatcher prints `usage` and kCommonHelp)
};

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"targets", "list the built-in targets",
       "usage: llgo-wasm targets [--json]\n\nLists the concrete built-in targets (abstract bases are not listed).\n",
       targets_command, false},
      {"resolve", "print the resolved target",
       "usage: llgo-wasm resolve [target options] [--json] [--output NAME]\n\n"
       "Resolves the request and prints every decided property; --json prints the machine-readable\n"
       "object (format-version 2), which loads back as a target (--target resolved.json).\n"
       "--output NAME also names the output file for this target.\n",
       resolve_command, false},
      {"sources", "select runtime sources by their //llgo:build lines",
       "usage: llgo-wasm sources [target options] --dir DIR [--json] [--explain]\n\n"
       "Prints the .c/.h/.S/.s files directly in DIR whose //llgo:build constraint holds for the\n"
       "target, one per line. --explain prints every file, selected or excluded, with the tags that decided.\n",
       sources_command, false},
      {"cache-key", "compute a package-build cache key",
       "usage: llgo-wasm cache-key [target options] --package-root DIR [--file F]... [--dep-key K]...\n"
       "                           [--toolchain-id NAME=VERSION]... [--flag F]... [--json] [--explain]\n\n"
       "Prints the SHA-256 cache key of a package build. Without --file every file under DIR\n"
       "(except names starting with '.') is an input. --explain prints the encoding that is hashed.\n",
       cache_key_command, false},
      {"link", "plan and run the link steps (driver/link)",
       "usage: llgo-wasm link [target options] ...   (see `llgo-wasm link --help` when built)\n",
       link_command, true},
      {"run", "run a program under an engine of its target",
       "usage: llgo-wasm run [target options] [--engine NAME] [--print-command [--json]] [--] PROGRAM [ARG...]\n"
       "   (see `llgo-wasm run --help` when built with the link pipeline)\n",
       run_options_command, true},
      {"cache", "the package cache: get, put, has, stats, trim",
       "usage: llgo-wasm cache get|put|has|stats|trim ...   (see `llgo-wasm cache --help`)\n",
       cache_command, true},
  };
  return list;
}

void print_main_help(std::ostream& out) {
  out << "usage: llgo-wasm <command> [options]\n\nCommands:\n";
  for (const auto& command : commands()) {
    out << "  " << command.name << std::string(12 - std::string(command.name).size(), ' ') << command.summary << "\n";
  }
  out << "\n" << kCommonHelp << "\nRun `llgo-wasm <command> --help` for a command's options.\n";
}

int run(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_main_help(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "llgo-wasm " << LLGO_WASM_VERSION << "\n";
    return 0;
  }
  const std::string& name = args[0];
  auto command = std::find_if(commands().begin(), commands().end(), [&](const Command& c) { return name == c.name; });
  if (command == commands().end()) {
    std::vector<std::string> names;
    for (const auto& c : commands()) names.push_back(c.name);
    throw DriverError("unknown command \"" + name + "\"; commands: " + joined(names, ", ") + " (see llgo-wasm --help)");
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (!command->own_help &&
      std::find_if(rest.begin(), rest.end(), [](const std::string& a) { return a == "--help" || a == "-h"; }) != rest.end()) {
    std::cout << command->usage << "\n" << kCommonHelp;
    return 0;
  }
  return command->entry(rest);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return run(args);
  } catch (const DriverError& error) {
    std::cerr << "llgo-wasm: " << error.what() << "\n";
    return 2;
  } catch (const json::type_error& error) {
    // 316: JSON strings are UTF-8, so --json cannot print a file name or argument that is not.
    if (error.id != 316) {
      std::cerr << "llgo-wasm: internal error: " << error.what() << "\n";
      return 1;
    }
    std::cerr << "llgo-wasm: --json cannot print a file name or argument that is not valid UTF-8; "
                 "rename the file or drop --json\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "llgo-wasm: internal error: " << error.what() << "\n";
    return 1;
  }
}
