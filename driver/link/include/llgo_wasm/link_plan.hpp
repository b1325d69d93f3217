// LinkPlan: the ordered steps that turn objects into a published output for a resolved
// target.  A plan is pure data (printable with --dry-run) built from the ResolvedTarget, the
// parsed link arguments and the discovered tools; the executor runs it.  Every step follows
// from the target's capabilities, never from its variant's name:
//
// asyncify post-link:   clang link -> core temp | stack-check | asyncify-analysis of the core (call
//                       graph -> wasm-opt arguments) | wasm-opt [--asyncify ...] -O
//                       [--translate-to-exnref when eh.compile != eh.final] -> final temp |
//                       validate | rename onto the output.
// context-merge:        clang link -> core temp | stack-check | wasm-merge core + the context's
//                       modules -> merged temp | wasm-opt --remove-exports=<internal> [-O]
//                       [--translate-to-exnref] -> final temp | validate | rename (stack
//                       switching: no Asyncify at all).
// asyncify by emcc:     [binaryen-shim (narrowed Asyncify and the stack check,
//                       emscripten_asyncify.hpp)] | emcc -> a temporary folder (emcc names its
//                       .wasm after the .js) | [asyncify-report] | move the folder's files beside
//                       the output.
// other WASI modules:   clang link -> temp | stack-check | validate | rename.
// stack-check (stack_check.hpp) is in every WebAssembly executable's plan unless
// --stack-check off; a program stack size (--stack-size) adds, before the link, the source
// defining llgo_stack_size and its compilation with the target's effective cflags, whose object
// the link takes.
// anything else, archives and shared libraries: tool -> temp | rename onto the output.
// Temporaries live in the output's own directory so the final rename is atomic.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/asyncify_narrowing.hpp"
#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/target.hpp"
#include "llgo_wasm/wasm_module_validation.hpp"

namespace llgo_wasm {

// What a step does; the executor dispatches on it, and never on the step's name (a label).
enum class LinkStepKind {
  // The kinds that run a tool (runs_tool): `command` is its argv, command[0] the tool.
  link,                   // the compiler driver (clang, emcc or the host compiler) links
  archive,                // llvm-ar archives the inputs
  compile_source,         // the compiler compiles a source an earlier step wrote
  merge_modules,          // wasm-merge joins the context's modules to the program
  optimise_module,        // wasm-opt: Asyncify, the optimisation level, exnref translation
  validate_module,
  publish_output,         // rename inputs[0] onto outputs[0]
  publish_folder,         // move the files of the folder inputs[0] beside outputs[0] (emcc's)
  analyse_asyncify,       // P1: call graph of inputs[0] -> outputs {arguments file, remove-list}
  prepare_binaryen_shim,  // Emscripten: outputs {shim folder, report file}
  read_asyncify_report,   // Emscripten: what the shim decided, from inputs[0]
  add_stack_check,        // WebAssembly: inputs[0] with the stack-overflow check -> outputs[0]
  write_source,           // writes `content` to outputs[0] (its folder created first)
};

// What the Emscripten wasm-opt shim needs (emscripten_asyncify.hpp).
struct BinaryenShimRequest {
  std::string binaryen_root;      // the Binaryen emcc would use
  std::string driver_executable;  // this llgo-wasm, which the shim script runs
  bool narrow = true;             // narrow emcc's Asyncify (its --asyncify runs)
  bool stack_check = false;       // add the stack-overflow check (stack_check.hpp)
};

// Does a step of this kind run a tool (its `command`)?
bool runs_tool(LinkStepKind kind);

struct LinkStep {
  LinkStepKind kind = LinkStepKind::link;
  std::string name;                  // short label: "link", "asyncify+exnref", "validate", "publish"
  std::vector<std::string> command;  // runs_tool: argv (command[0] is the tool)
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::optional<ModuleExpectations> expectations;  // validate_module only
  std::optional<AsyncifyNarrowingRequest> narrowing;  // analyse_asyncify only: outputs are
                                                      // {arguments file, remove-list file}
  // runs_tool: arguments an earlier step decided, read at run time from this file (one per
  // line) and inserted before command[arguments_insert_at].
  std::optional<std::string> arguments_file;
  size_t arguments_insert_at = 0;
  std::vector<std::string> environment;         // runs_tool: KEY=VALUE set for the tool
  std::vector<std::string> create_directories;  // runs_tool: made before the tool runs
  // optimise_module (Binaryen with a remove-list): its stderr is passed on less the warnings about
  // listed names the module does not define (keeps_binaryen_line).
  bool drop_absent_name_warnings = false;
  std::optional<BinaryenShimRequest> shim;      // prepare_binaryen_shim only
  std::string content;                          // write_source only
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
  std::string wasm_merge;        // empty when the plan merges no modules
  // Emscripten executables with narrowed Asyncify: the Binaryen emcc uses and this driver's
  // executable (the shim runs it); without both, emcc's own analysis decides (a note says why).
  std::optional<std::string> emscripten_binaryen_root;
  std::optional<std::string> driver_executable;
};

// Unique-per-run temp names, `.<output name>.<role>.<pid>.<random>.tmp`.
struct TemporaryNaming {
  long process_id = 0;
  std::string random_token;
};
std::string temporary_path(const std::string& output_path, const std::string& role,
                           const TemporaryNaming& naming);

// Does the link line ask for debug information (its last -g flag, unless -g0)?  Without it a
// WASI executable is linked with -Wl,--strip-debug; with it the wasm-opt step gets -g (names
// kept, DWARF rewritten for the optimised code).
bool link_line_keeps_debug_info(const std::vector<std::string>& line);

// A word as a POSIX shell reads it back: as it is when it needs no quoting, else in '...'.
std::string shell_quote(const std::string& word);

// Does this target need the post-link Asyncify (+ exnref) pipeline for an executable? (Not with
// a context on engine stacks: JSPI on P1.)
bool needs_post_link_asyncify(const ResolvedTarget& target);
// Does its chosen context merge modules into executables (then wasm-merge and a wasm-opt step
// follow the link, without Asyncify)?
bool needs_program_merge(const ResolvedTarget& target);
// Does the compiler's exception handling differ from what the published module must contain
// (legacy -> exnref: a wasm-opt step with --translate-to-exnref follows the link, last)?
bool needs_exception_translation(const ResolvedTarget& target);
// Any of the three: an executable of this target gets a post-link wasm-opt step.
bool needs_post_link_wasm_opt(const ResolvedTarget& target);

LinkPlan build_link_plan(const ResolvedTarget& target, const LinkArguments& arguments,
                         const LinkToolchain& toolchain, const TemporaryNaming& naming);

std::string format_link_plan_text(const LinkPlan& plan);
nlohmann::json link_plan_to_json(const LinkPlan& plan);

// The Asyncify switch imports passed by default: Binaryen's in-module intrinsics that start an
// unwind or end a rewind (see docs/link-pipeline.md for why this list is complete).
const std::vector<std::string>& default_asyncify_switch_imports();

}  // namespace llgo_wasm
