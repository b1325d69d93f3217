// Turns the call-graph analysis (asyncify_analysis.hpp) into Binaryen arguments: the link
// plan's "asyncify-analysis" step reads the core module, decides, and writes the arguments the
// following wasm-opt step gets (one per line) and the remove-list they point at.
//
//   nothing can switch and nothing imports asyncify.*  ->  no Asyncify arguments at all
//   otherwise  ->  --asyncify --pass-arg=asyncify-imports@<switch imports>
//                  --pass-arg=asyncify-removelist@@<file of the non-switching functions>
// A remove-list, not an only-list: a function the list fails to name (Binaryen renamed it, or
// an optimisation before --asyncify made it) falls back to Binaryen's own, wider analysis, so
// a naming mismatch costs size, never correctness.  When the module cannot be analysed the
// step falls back to Binaryen's own analysis and says why.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace llgo_wasm {

struct AsyncifyAnalysis;

struct AsyncifyNarrowingRequest {
  std::vector<std::string> switch_imports;      // "module.name" patterns of switching imports
  std::vector<std::string> table_call_imports;  // imports that call table entries (invoke_*)
  std::vector<std::string> never_switch;        // functions declared non-switching (the descriptor's
                                                // asyncify-removelist): listed, and not propagated through
};

struct AsyncifyNarrowingReport {
  bool analysed = false;
  std::string fallback_reason;     // why the analysis could not run (analysed == false)
  bool asyncify_needed = true;     // false: the module gets no Asyncify pass at all
  unsigned defined_functions = 0;
  unsigned can_switch = 0;         // functions from which a switch point is reachable
  unsigned start_switch = 0;       // of those, callers of asyncify.start_unwind/stop_rewind (not instrumented)
  unsigned listed_non_switching = 0;
  unsigned left_to_binaryen = 0;   // non-switching functions without a name Binaryen is sure to use
  std::vector<std::string> can_switch_names;
  std::vector<std::string> switch_imports_called;  // the switch points the module calls ("module.name")
  double seconds = 0;

  // One line for `llgo-wasm link -v`.
  std::string summary() const;
};

// Reads the module at `module_path` and decides (see the top of this file).  The returned
// arguments are what wasm-opt needs; `list_path` is written when a remove-list is used.
AsyncifyNarrowingReport plan_asyncify_arguments(const std::string& module_path, const AsyncifyNarrowingRequest& request,
                                                const std::string& list_path, std::vector<std::string>& arguments);

// The same, writing the arguments to `arguments_path`, one per line (the plan's analysis step).
AsyncifyNarrowingReport write_asyncify_arguments(const std::string& module_path, const AsyncifyNarrowingRequest& request,
                                                 const std::string& arguments_path, const std::string& list_path);

// The report's counts and names for an analysis (analysed = true, asyncify_needed decided).
AsyncifyNarrowingReport report_of(const AsyncifyAnalysis& analysis);

// Writes `lines`, one per line (a Binaryen list file); throws std::runtime_error.
void write_list_file(const std::string& path, const std::vector<std::string>& lines);

// "--pass-arg=asyncify-imports@a.b,c.d"
std::string asyncify_imports_argument(const std::vector<std::string>& switch_imports);
// --pass-arg=asyncify-removelist@a,b,... for names given inline (the descriptor's list).
std::string asyncify_removelist_argument(const std::vector<std::string>& names);

// Whether a line of Binaryen's stderr is passed on: not its warning that a remove-list named a
// function the module does not define (the descriptor's lists name runtime functions a program
// may not have, or that the optimiser inlined). The asyncify step's stderr filter.
bool keeps_binaryen_line(std::string_view line);

}  // namespace llgo_wasm
