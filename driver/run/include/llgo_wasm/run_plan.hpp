// What `llgo-wasm run` starts: a target's engine for one program (docs/targets.md, run-engines and
// engines). An engine is *here* when its tool is found (engine_tool.hpp) and, when its command
// names files of llgo-wasm ({root}), the llgo-wasm root is known. The program runs under --engine
// when given, else under the first of the target's run-engines that runs the program's extension
// and is here.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/engine_tool.hpp"
#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// One engine of a target on this machine.
struct LocatedEngine {
  std::string name;
  Engine engine;
  std::string extension;             // the output extension it runs (the target's default for "")
  std::optional<EngineTool> tool;    // its first word, found (nullopt: the program itself, or missing)
  std::string problem;               // why it is not here; "" when it is
  std::vector<std::string> command;  // {root} and the tool substituted; {program}, {environment} kept
  bool here() const { return problem.empty(); }
};

using ToolFinder = std::function<EngineToolSearch(const std::string& tool, const std::string& minimum_version)>;

// Every engine of the target, by name.
std::vector<LocatedEngine> locate_engines(const TargetSpec& spec, const std::optional<std::string>& root,
                                          const ToolFinder& find_tool);

// The extension of a program's file name ("" for none): ".wasm", ".js", ".mjs".
std::string program_extension(const std::string& program);

struct RunPlan {
  LocatedEngine engine;
  std::vector<std::string> argv;  // what runs: the command for this program, its arguments after it
};

// Chooses the engine and builds the argv: {program} is `program`, {environment} expands over
// `environment` (NAME=VALUE entries), `arguments` follow. Throws DriverError (exit 2) saying what
// is wrong and how to fix it: a program the target does not write, an engine it does not have or
// that does not run such programs, no engine here.
RunPlan plan_run(const TargetSpec& spec, const std::string& program, const std::vector<std::string>& arguments,
                 const std::optional<std::string>& engine, const std::optional<std::string>& root,
                 const ToolFinder& find_tool, const std::vector<std::string>& environment);

}  // namespace llgo_wasm
