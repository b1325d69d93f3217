// Runs a LinkPlan with all-or-nothing semantics: on any failure (tool error, crash, missing
// tool, validation failure, full disk, SIGINT/SIGTERM to the driver) the previous output stays
// byte-identical and every temporary is removed.  Before running, stale temporaries of the same
// output left by killed earlier runs (dead pid, older than this run) are swept.
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "llgo_wasm/link_plan.hpp"
#include "llgo_wasm/stack_check.hpp"

namespace llgo_wasm {

struct LinkExecutionOptions {
  bool verbose = false;          // one summary line per step, sizes and wasm-opt time
  bool show_progress = false;    // live "step, elapsed" line (terminal only) after 1 s
  std::chrono::milliseconds progress_delay{1000};
};

struct LinkStepReport {
  std::string name;
  double seconds = 0;
  std::string detail;
};

struct LinkExecutionResult {
  bool succeeded = false;
  std::string error;  // what failed, where, how to fix
  std::vector<LinkStepReport> steps;
  std::optional<AsyncifyNarrowingReport> asyncify;  // when the plan analysed the call graph
  std::optional<StackCheckReport> stack_check;      // when the plan added the stack check
};

LinkExecutionResult execute_link_plan(const LinkPlan& plan, const LinkExecutionOptions& options,
                                      std::ostream& diagnostics);

// Removes `.<output name>.*.<pid>.<token>.tmp` files beside the output whose pid is not alive
// and that are older than `run_started`; returns the removed paths.
std::vector<std::string> sweep_stale_temporaries(const std::string& output_path,
                                                 std::chrono::system_clock::time_point run_started);

}  // namespace llgo_wasm
