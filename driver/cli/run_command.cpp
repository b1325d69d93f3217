// `llgo-wasm run [target options] [--engine E] [--print-command [--json]] PROGRAM [ARG...]`
// `llgo-wasm run [target options] --list-engines [--json]`
//
// Runs a program of any target under the engine its descriptor names (the first of run-engines
// that runs the program's extension and whose tool is here) or the one --engine chooses. Without
// --target (or --goos/--goarch) the program itself says which target wrote it
// (program_target.hpp). This process becomes the engine (execv), so the program's stdin, stdout,
// stderr, environment and exit status are its own; its arguments follow it unread.
#include "run_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/link_plan.hpp"
#include "llgo_wasm/llgo_wasm_root.hpp"
#include "llgo_wasm/program_target.hpp"
#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/run_plan.hpp"

extern char** environ;

namespace llgo_wasm::cli {

const char* const kRunUsage =
    "usage: llgo-wasm run [target options] [--engine NAME] [--print-command [--json]] [--] PROGRAM [ARG...]\n"
    "       llgo-wasm run [target options] --list-engines [--json]\n\n"
    "Runs PROGRAM (app.wasm, app.js, app.mjs, a native executable) under an engine of its target: --engine NAME,\n"
    "else the first of the target's run-engines (`llgo-wasm resolve`) that runs the program's extension and is\n"
    "here. Without --target (or --goos/--goarch) the program says which target wrote it: its extension, and\n"
    "its module's shared memory, memory64 and stack-switching instructions. The program's stdin, stdout,\n"
    "stderr, environment and exit status are its own; ARGs are passed on unread.\n\n"
    "An engine's tool (node, node26, wasmedge, ...) is found as the toolchain files find tools: the environment\n"
    "variable of its name (NODE, NODE26, WASMEDGE, ...), the folder tools/setup-toolchain.sh installed\n"
    "(LLGO_WASM_TOOLCHAIN_DIR), then PATH, at the engine's minimum-version. Runner scripts ({root}) come from\n"
    "LLGO_WASM_ROOT, else the installed prefix or the build tree this llgo-wasm belongs to.\n\n"
    "  --engine NAME      run under this engine of the target\n"
    "  --print-command    print the command instead of running it (--json: as JSON)\n"
    "  --list-engines     list the target's engines: here or why not, and their commands (--json: as JSON)\n";

namespace {

using nlohmann::json;

bool takes_value(const std::string& option) {
  static const std::vector<std::string> common = {"--target", "--goos", "--goarch", "--context",
                                                  "--stacks", "--env",  "--descriptor-path"};
  return std::find(common.begin(), common.end(), option) != common.end() ||
         std::find(kRunValueOptions.begin(), kRunValueOptions.end(), option) != kRunValueOptions.end();
}

std::string shell_words(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& word : words) line += (line.empty() ? "" : " ") + shell_quote(word);
  return line;
}

std::vector<std::string> process_environment_entries() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry && *entry; ++entry) entries.emplace_back(*entry);
  return entries;
}

ToolFinder tool_finder() {
  const EnvironmentLookup environment = process_environment();
  return [environment](const std::string& tool, const std::string& minimum) {
    return find_engine_tool(tool, minimum, environment);
  };
}

ResolvedTarget resolve_for(const RunRequest& request, const std::optional<std::string>& program) {
  if (request.target_named || !program) return resolve_target(builtin_descriptors(), request.query);
  Query query = request.query;
  query.target = infer_program_target(builtin_descriptors(), *program);
  return resolve_target(builtin_descriptors(), query);
}

int list_engines(const ResolvedTarget& target, const std::optional<std::string>& root, bool as_json) {
  std::vector<LocatedEngine> engines = locate_engines(target.spec, root, tool_finder());
  if (as_json) {
    json document = {{"target", target.spec.name}, {"run-engines", target.spec.run_engines}, {"engines", json::object()}};
    for (const auto& engine : engines) {
      json entry = {{"here", engine.here()}, {"extension", engine.extension}, {"command", engine.command}};
      if (engine.tool) entry["tool"] = {{"path", engine.tool->path}, {"source", engine.tool->source}, {"version", engine.tool->version}};
      if (!engine.here()) entry["problem"] = engine.problem;
      document["engines"][engine.name] = entry;
    }
    std::cout << document.dump(2) << "\n";
    return 0;
  }
  std::cout << "target " << target.spec.name << ", run-engines: ";
  for (std::size_t i = 0; i < target.spec.run_engines.size(); ++i) std::cout << (i ? ", " : "") << target.spec.run_engines[i];
  std::cout << "\n";
  for (const auto& engine : engines) {
    std::cout << "  " << engine.name << " (" << (engine.extension.empty() ? "any name" : engine.extension) << "): ";
    if (engine.here()) {
      std::cout << shell_words(engine.command);
      if (engine.tool) std::cout << "   [" << engine.tool->source << (engine.tool->version.empty() ? "" : ", " + engine.tool->version) << "]";
    } else {
      std::cout << "not here: " << engine.problem;
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

RunWords split_run_words(const std::vector<std::string>& words) {
  RunWords split;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "--") {
      split.program_and_arguments.assign(words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end());
      return split;
    }
    if (word.size() < 2 || word[0] != '-') {
      split.program_and_arguments.assign(words.begin() + static_cast<std::ptrdiff_t>(i), words.end());
      return split;
    }
    split.options.push_back(word);
    // Go's single-dash spelling (-target wasm) is accepted for long options.
    std::string option = word[1] == '-' ? word : "-" + word;
    if (option.find('=') == std::string::npos && takes_value(option) && i + 1 < words.size()) {
      split.options.push_back(words[++i]);
    }
  }
  return split;
}

int run_command(const RunRequest& request) {
  const std::optional<std::string> root = find_llgo_wasm_root(process_environment());
  if (request.list_engines) {
    if (!request.program_and_arguments.empty()) {
      throw DriverError("run: --list-engines takes no program (it lists the target's engines: name the target with --target)");
    }
    return list_engines(resolve_for(request, std::nullopt), root, request.json);
  }
  if (request.program_and_arguments.empty()) {
    throw DriverError("run: no program given; usage: llgo-wasm run [--target T] [--engine E] PROGRAM [ARG...] "
                      "(see llgo-wasm run --help)");
  }
  if (request.json && !request.print_command) throw DriverError("run: --json goes with --print-command or --list-engines");
  const std::string& program = request.program_and_arguments.front();
  if (access(program.c_str(), F_OK) != 0) throw DriverError("run: " + program + ": no such file");
  const ResolvedTarget target = resolve_for(request, program);
  const std::vector<std::string> arguments(request.program_and_arguments.begin() + 1, request.program_and_arguments.end());
  RunPlan plan = plan_run(target.spec, program, arguments, request.engine, root, tool_finder(), process_environment_entries());
  if (request.print_command) {
    if (request.json) {
      json document = {{"target", target.spec.name}, {"engine", plan.engine.name}, {"command", plan.argv}};
      if (plan.engine.tool) {
        document["tool"] = {{"path", plan.engine.tool->path}, {"source", plan.engine.tool->source}, {"version", plan.engine.tool->version}};
      }
      std::cout << document.dump(2) << "\n";
    } else {
      std::cout << shell_words(plan.argv) << "\n";
    }
    return 0;
  }
  std::vector<char*> argv;
  for (auto& word : plan.argv) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  ::execv(argv.front(), argv.data());
  throw DriverError("run: cannot start " + plan.argv.front() + " (engine " + plan.engine.name + "): " + std::strerror(errno));
}

}  // namespace llgo_wasm::cli
