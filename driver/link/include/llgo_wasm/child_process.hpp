// Runs a tool as a child process (posix_spawn, no shell) and reports how it ended.
// Limits: POSIX only; stdin is inherited; stdout can be captured, stderr always inherited.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace llgo_wasm {

struct ChildResult {
  bool started = false;        // false: the tool could not be executed (see start_error)
  std::string start_error;
  bool exited = false;         // normal exit; exit_status valid
  int exit_status = -1;
  int terminating_signal = 0;  // killed by a signal; 0 otherwise
  std::string captured_stdout;

  bool succeeded() const { return started && exited && exit_status == 0; }
  std::string describe_failure(const std::string& tool) const;  // "wasm-opt was killed by SIGKILL"
};

// `environment`: KEY=VALUE entries set (or replaced) in the child's environment;
// `stderr_path`: when not empty, the child's stderr goes to that file instead;
// `keep_stderr_line`: when set (and neither capture_stdout nor stderr_path is), the child's stderr
// is read through a pipe and each line it keeps is written to this process's stderr (no file is
// involved, so nothing is lost when the disk is full).
ChildResult run_child_process(const std::vector<std::string>& command, bool capture_stdout = false,
                              const std::vector<std::string>& environment = {}, const std::string& stderr_path = "",
                              const std::function<bool(std::string_view)>& keep_stderr_line = {});

// The pid of the child currently being waited for, or 0 (used to forward SIGINT/SIGTERM).
int current_child_process_id();

}  // namespace llgo_wasm
