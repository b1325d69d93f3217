// LinkPlan: the ordered steps that turn objects into a published output for a resolved
// target.  A plan is pure data (printable with --dry-run) built from the ResolvedTarget, the
// parsed link arguments and the discovered tools; the executor runs it.  Every step follows
// from the target's capabilities, never from its variant's name:
//
// asyncify post-link:   clang link -> core temp | wasm-opt --asyncify ... [--translate-to-exnref
//                       when eh.compile != eh.final] -> final temp | validate | rename onto the output.
// other WASI modules:   clang link -> temp | validate | rename.
// anything else, archives and shared libraries: tool -> temp | rename onto the output.
// Temporaries live in the output's own directory so the final rename is atomic.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/target.hpp"
#include "llgo_wasm/wasm_module_validation.hpp"

namespace llgo_wasm {

enum class LinkStepKind { run_tool, validate_module, publish_output };

struct LinkStep {
  LinkStepKind kind = LinkStepKind::run_tool;
  std::string name;                  // short label: "link", "asyncify+exnref", "validate", "publish"
  std::vector<std::string> command;  // run_tool: argv (command[0] is the tool)
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::optional<ModuleExpectations> expectations;  // validate_module only
};

struct LinkPlan {
  std::string target_name;
  std::string variant;  // display label only
  LinkOutputKind kind = LinkOutputKind::executable;
  std::string output_path;
  std::vector<std::string> temporaries;  // every temp file the plan may create
  std::vector<LinkStep> steps;
  std::vector<std::string> notes;        // decisions worth showing (stripped -O, triple alias)
};

// Tools and environment facts the plan depends on, discovered by the caller (so planning is
// deterministic and testable).
struct LinkToolchain {
  std::string compiler;          // clang (or emcc for Emscripten targets, or host cc)
  std::string archiver;          // llvm-ar
  std::string wasm_opt;          // empty when the plan needs no wasm-opt
  std::optional<std::string> sysroot;
  std::optional<std::string> llgo_wasm_root;  // what {root} in the target's flags names
};

// Unique-per-run temp names, `.<output name>.<role>.<pid>.<random>.tmp`.
struct TemporaryNaming {
  long process_id = 0;
  std::string random_token;
};
std::string temporary_path(const std::string& output_path, const std::string& role,
                           const TemporaryNaming& naming);

// Does this target need the post-link Asyncify (+ exnref) pipeline for an executable?
bool needs_post_link_asyncify(const ResolvedTarget& target);

LinkPlan build_link_plan(const ResolvedTarget& target, const LinkArguments& arguments,
                         const LinkToolchain& toolchain, const TemporaryNaming& naming);

std::string format_link_plan_text(const LinkPlan& plan);
nlohmann::json link_plan_to_json(const LinkPlan& plan);

// The Asyncify switch imports passed by default: Binaryen's in-module intrinsics that start an
// unwind or end a rewind (see docs/link-pipeline.md for why this list is complete).
const std::vector<std::string>& default_asyncify_switch_imports();

}  // namespace llgo_wasm
