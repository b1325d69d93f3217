// Choosing an engine and building its command (see run_plan.hpp).
#include "llgo_wasm/run_plan.hpp"

#include <algorithm>
#include <filesystem>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

bool names_root(const std::vector<std::string>& command) {
  return std::any_of(command.begin(), command.end(),
                     [](const std::string& word) { return word.find(kRootPlaceholder) != std::string::npos; });
}

// Does an engine run a program with this extension? A target that accepts any name (native) runs
// every program on each of its engines.
bool runs_extension(const TargetSpec& spec, const LocatedEngine& engine, const std::string& extension) {
  return spec.output.accepted_extensions.empty() || engine.extension == extension;
}

std::string describe(const std::string& extension) { return extension.empty() ? "extension-less" : extension; }

}  // namespace

std::string program_extension(const std::string& program) {
  return std::filesystem::path(program).extension().string();
}

std::vector<LocatedEngine> locate_engines(const TargetSpec& spec, const std::optional<std::string>& root,
                                          const ToolFinder& find_tool) {
  std::vector<LocatedEngine> located;
  for (const auto& [name, engine] : spec.engines) {
    LocatedEngine entry{name, engine, engine.extension.empty() ? spec.output.default_extension : engine.extension,
                        std::nullopt, "", engine.command};
    if (names_root(engine.command)) {
      if (root) {
        for (auto& word : entry.command) word = substitute(word, kRootPlaceholder, *root);
      } else {
        entry.problem = "its command names files of llgo-wasm ({root}), and the llgo-wasm root is unknown: set "
                        "LLGO_WASM_ROOT to the checkout, or run an installed llgo-wasm";
      }
    }
    const std::string& first = engine.command.front();
    if (first != kProgramPlaceholder && entry.problem.empty()) {
      EngineToolSearch search = find_tool(first, engine.minimum_version);
      if (search.tool) {
        entry.tool = search.tool;
        entry.command.front() = search.tool->path;
      } else {
        entry.problem = "its tool " + first + (engine.minimum_version.empty() ? "" : " (>= " + engine.minimum_version + ")") +
                        " is not here (" + joined(search.findings) + "); " + search.fix;
      }
    }
    located.push_back(std::move(entry));
  }
  return located;
}

RunPlan plan_run(const TargetSpec& spec, const std::string& program, const std::vector<std::string>& arguments,
                 const std::optional<std::string>& engine, const std::optional<std::string>& root,
                 const ToolFinder& find_tool, const std::vector<std::string>& environment) {
  const std::string extension = program_extension(program);
  const auto& accepted = spec.output.accepted_extensions;
  if (!accepted.empty() && std::find(accepted.begin(), accepted.end(), extension) == accepted.end()) {
    throw DriverError("run: target " + spec.name + " writes " + joined(accepted) + " programs, and " + program + " is " +
                      describe(extension) + "; name the target that built it (--target)");
  }
  std::vector<std::string> names;
  for (const auto& [name, settings] : spec.engines) names.push_back(name);
  if (engine && !spec.engines.count(*engine)) {
    throw DriverError("run: target " + spec.name + " has no engine \"" + *engine + "\"; its engines: " + joined(names));
  }
  // Only the engines that could run it are looked for (a look costs a `--version`).
  TargetSpec candidates = spec;
  std::erase_if(candidates.engines, [&](const auto& entry) {
    if (engine) return entry.first != *engine;
    return std::find(spec.run_engines.begin(), spec.run_engines.end(), entry.first) == spec.run_engines.end();
  });
  std::vector<LocatedEngine> located = locate_engines(candidates, root, find_tool);
  std::optional<LocatedEngine> chosen;
  std::vector<std::string> passed_over;
  if (engine) {
    LocatedEngine& only = located.front();
    if (!runs_extension(spec, only, extension)) {
      throw DriverError("run: engine " + only.name + " of target " + spec.name + " runs " + describe(only.extension) +
                        " programs, and " + program + " is " + describe(extension));
    }
    if (!only.here()) throw DriverError("run: engine " + only.name + " of target " + spec.name + " cannot run here: " + only.problem);
    chosen = only;
  } else {
    for (const auto& name : spec.run_engines) {
      auto found = std::find_if(located.begin(), located.end(), [&](const LocatedEngine& e) { return e.name == name; });
      if (found == located.end() || !runs_extension(spec, *found, extension)) continue;
      if (found->here()) {
        chosen = *found;
        break;
      }
      passed_over.push_back(found->name + ": " + found->problem);
    }
    if (!chosen) {
      if (passed_over.empty()) {
        throw DriverError("run: none of target " + spec.name + "'s run-engines (" + joined(spec.run_engines) + ") runs " +
                          describe(extension) + " programs; choose one of its engines with --engine (" + joined(names) + ")");
      }
      std::string message = "run: no engine of target " + spec.name + " that runs " + describe(extension) + " programs is here:";
      for (const auto& reason : passed_over) message += "\n  " + reason;
      throw DriverError(message);
    }
  }
  std::vector<std::string> argv;
  for (const auto& word : chosen->command) argv.push_back(substitute(word, kProgramPlaceholder, program));
  argv = expand_environment_words(argv, environment);
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return RunPlan{*chosen, argv};
}

}  // namespace llgo_wasm
