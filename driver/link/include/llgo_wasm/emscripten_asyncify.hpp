// Asyncify narrowing for the Emscripten targets (J32/J64), where emcc runs Binaryen itself.
//
// emcc runs `<BINARYEN_ROOT>/bin/wasm-opt <passes> --asyncify --pass-arg=asyncify-imports@<its
// async imports> ... <linked module> -o <out>` and honours EM_BINARYEN_ROOT.  The driver's link
// points EM_BINARYEN_ROOT at a private folder whose bin/ holds links to the real Binaryen tools
// and, as wasm-opt, a two-line script that runs `llgo-wasm link --as-emscripten-wasm-opt`.  That
// shim sees exactly the module Binaryen is about to instrument and exactly emcc's list of async
// imports (its own JS library functions marked async, EM_ASYNC_JS, invoke_* and the user's
// ASYNCIFY_IMPORTS), analyses the call graph (asyncify_analysis.hpp) and adds the functions
// that cannot switch to Binaryen's remove-list (what -sASYNCIFY_REMOVE becomes), then runs the
// real wasm-opt.  A remove-list stays correct even though emcc optimises (-O2) before
// --asyncify in the same run: functions the optimiser makes or renames are not on the list, so
// Binaryen's own analysis covers them.  invoke_* imports are modelled as calls into the table;
// exports escape only through the module's own references, since the -sASYNCIFY=1 glue hands
// JavaScript wrappers of them, never the exported functions (host_holds_only_export_wrappers).
// The shim leaves a report (counts and names) for the driver's -v and --print-asyncify-list.
// It also adds the stack-overflow check (stack_check.hpp) to the module emcc gives wasm-opt,
// before its optimiser and Asyncify run, when the link asks for it (every link unless
// --stack-check off), and reports it beside the Asyncify report.
// Every wasm-opt run without --asyncify, and any run the shim cannot analyse, is passed through
// unchanged.  Limits: Linux (/proc/self/exe names the driver); an ASYNCIFY_ONLY list given by
// the user is left alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/asyncify_narrowing.hpp"
#include "llgo_wasm/stack_check.hpp"

namespace llgo_wasm {

// The first argument of `llgo-wasm link` that makes it act as the wasm-opt shim (the CLI
// dispatches it before resolving any target: the shim needs none):
//   llgo-wasm link --as-emscripten-wasm-opt REAL_WASM_OPT REPORT_FILE [--llgo-no-narrowing]
//                  [--llgo-stack-check] [wasm-opt args...]
inline constexpr const char* emscripten_wasm_opt_shim_flag = "--as-emscripten-wasm-opt";
// Optional words right after REPORT_FILE: do not narrow Asyncify; add the stack check.
inline constexpr const char* kShimNoNarrowing = "--llgo-no-narrowing";
inline constexpr const char* kShimStackCheck = "--llgo-stack-check";

// Creates `shim_root`/bin: links to every tool in `binaryen_root`/bin except wasm-opt, and a
// wasm-opt script that runs `driver link --as-emscripten-wasm-opt ...` (narrowing Asyncify and
// adding the stack check as asked). Throws std::runtime_error with what failed.
void prepare_binaryen_shim(const std::string& binaryen_root, const std::string& shim_root, const std::string& report_path,
                           const std::string& driver_executable, bool narrow = true, bool stack_check = false);

// Runs the shim (arguments after the flag); returns wasm-opt's exit status.
int run_emscripten_wasm_opt_shim(const std::vector<std::string>& arguments);

// The report the shim wrote; std::nullopt when it wrote none (emcc ran no Asyncify pass).
std::optional<AsyncifyNarrowingReport> read_asyncify_report(const std::string& report_path);
// The stack check's report the shim wrote beside it; std::nullopt when it added none.
std::optional<StackCheckReport> read_stack_check_report(const std::string& report_path);

// The Binaryen emcc uses: EM_BINARYEN_ROOT, else `em-config BINARYEN_ROOT` beside `emcc`.
std::optional<std::string> emscripten_binaryen_root(const std::string& emcc);

// The running driver's own executable (Linux /proc/self/exe), or std::nullopt.
std::optional<std::string> current_executable();

}  // namespace llgo_wasm
