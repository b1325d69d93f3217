// Runs LinkPlans with all-or-nothing publishing (see link_executor.hpp).
// Limits: stale-temporary detection trusts pids on this machine (a temp from another host on a
// shared file system, or whose pid was reused, is left for a later run); SIGKILL of the driver
// itself leaves its temporaries, which the next link of the same output sweeps.
#include "llgo_wasm/link_executor.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "llgo_wasm/asyncify_narrowing.hpp"
#include "llgo_wasm/child_process.hpp"
#include "llgo_wasm/emscripten_asyncify.hpp"
#include "llgo_wasm/stack_check.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"
#include "llgo_wasm/wasm_module_validation.hpp"

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t pending_signal = 0;

void on_terminating_signal(int signal_number) {
  pending_signal = signal_number;
  int child = current_child_process_id();
  if (child > 0) kill(child, signal_number);
}

// Forwards SIGINT/SIGTERM/SIGHUP to the running tool while a plan runs, so the executor can
// clean up before the driver dies; restores the previous handlers afterwards.
class TerminationGuard {
 public:
  TerminationGuard() {
    pending_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_terminating_signal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(signals_); ++i) sigaction(signals_[i], &action, &previous_[i]);
  }
  ~TerminationGuard() {
    for (size_t i = 0; i < std::size(signals_); ++i) sigaction(signals_[i], &previous_[i], nullptr);
  }
  int pending() const { return pending_signal; }
  void reraise_if_pending() const {
    int signal_number = pending_signal;
    if (signal_number != 0) {
      pending_signal = 0;
      raise(signal_number);  // previous handler (default: terminate) is back in place
    }
  }

 private:
  static constexpr int signals_[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous_[3] {};
};

// "step 2/4 asyncify+exnref, 3.2 s" on a terminal once a link has run for a while.
class ProgressLine {
 public:
  ProgressLine(bool enabled, std::chrono::milliseconds delay) : enabled_(enabled), delay_(delay) {
    if (enabled_) thread_ = std::thread([this] { loop(); });
  }
  ~ProgressLine() {
    if (!enabled_) return;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
    if (shown_) std::fputs("\r\033[K", stderr);
  }
  void set_step(const std::string& label) {
    std::lock_guard lock(mutex_);
    step_ = label;
    step_started_ = Clock::now();
  }

 private:
  void loop() {
    const auto link_started = Clock::now();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(200));
      if (stopping_ || Clock::now() - link_started < delay_) continue;
      double step_seconds = std::chrono::duration<double>(Clock::now() - step_started_).count();
      double total_seconds = std::chrono::duration<double>(Clock::now() - link_started).count();
      std::fprintf(stderr, "\r\033[Kllgo-wasm link: %s  %.1f s (total %.1f s)", step_.c_str(), step_seconds, total_seconds);
      std::fflush(stderr);
      shown_ = true;
    }
  }

  bool enabled_;
  std::chrono::milliseconds delay_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool shown_ = false;
  std::string step_;
  Clock::time_point step_started_ = Clock::now();
};

std::optional<uintmax_t> file_size(const std::string& path) {
  std::error_code error;
  uintmax_t size = fs::file_size(path, error);
  if (error) return std::nullopt;
  return size;
}

std::string size_change(uintmax_t before, uintmax_t after) {
  char buffer[128];
  double percent = before == 0 ? 0.0 : (static_cast<double>(after) - static_cast<double>(before)) * 100.0 / static_cast<double>(before);
  std::snprintf(buffer, sizeof buffer, "%ju B -> %ju B (%+.1f%%)", before, after, percent);
  return buffer;
}

std::string command_line(const std::vector<std::string>& command) {
  std::string line;
  for (const auto& word : command) line += (line.empty() ? "" : " ") + word;
  return line;
}

void remove_temporaries(const LinkPlan& plan) {
  for (const auto& temp : plan.temporaries) {
    std::error_code ignored;
    fs::remove_all(temp, ignored);  // a temporary may be a folder (emcc's output, the Binaryen shim)
  }
}

// "<role>.<pid>.<token>" -> pid, for names temporary_path makes (a role is lowercase letters and
// dashes: "core", "asyncify-args"); nullopt for anything else.
std::optional<long> temporary_owner_pid(const std::string& rest) {
  size_t pid_dot = rest.find('.');
  size_t token_dot = pid_dot == std::string::npos ? std::string::npos : rest.find('.', pid_dot + 1);
  if (pid_dot == 0 || token_dot == std::string::npos || rest.find('.', token_dot + 1) != std::string::npos) return std::nullopt;
  const std::string role = rest.substr(0, pid_dot);
  const std::string pid_text = rest.substr(pid_dot + 1, token_dot - pid_dot - 1);
  const std::string token = rest.substr(token_dot + 1);
  if (role.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") != std::string::npos) return std::nullopt;
  if (pid_text.empty() || pid_text.size() > 9 || pid_text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  if (token.empty() || token.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
  return std::stol(pid_text);
}

// Publishes `from` onto `to`: a file by rename; a folder (emcc's output) by renaming each of
// its files beside `to`, the one named like `to` last, so the script appears after its .wasm.
std::string publish(const std::string& from, const std::string& to, bool folder) {
  std::error_code error;
  if (!folder) {
    if (std::rename(from.c_str(), to.c_str()) != 0) return "rename " + from + " -> " + to + ": " + std::strerror(errno);
    return {};
  }
  const fs::path destination = fs::path(to).parent_path().empty() ? fs::path(".") : fs::path(to).parent_path();
  std::vector<fs::path> files;
  for (fs::directory_iterator entries(from, error), end; !error && entries != end; entries.increment(error)) {
    files.push_back(entries->path());
  }
  if (error) return "read " + from + ": " + error.message();
  std::stable_partition(files.begin(), files.end(), [&](const fs::path& file) { return file.filename() != fs::path(to).filename(); });
  for (const auto& file : files) {
    const fs::path target = destination / file.filename();
    if (std::rename(file.c_str(), target.c_str()) != 0) return "rename " + file.string() + " -> " + target.string() + ": " + std::strerror(errno);
  }
  return {};
}

// The step's command with the arguments an earlier step wrote to its arguments file.
std::vector<std::string> command_with_decided_arguments(const LinkStep& step) {
  std::vector<std::string> command = step.command;
  if (!step.arguments_file) return command;
  std::ifstream file(*step.arguments_file);
  if (!file) throw std::runtime_error("cannot read " + *step.arguments_file);
  std::vector<std::string> decided;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty()) decided.push_back(line);
  }
  command.insert(command.begin() + static_cast<long>(std::min(step.arguments_insert_at, command.size())), decided.begin(),
                 decided.end());
  return command;
}

bool process_is_alive(long pid) {
  if (pid <= 0) return false;
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

std::vector<std::string> sweep_stale_temporaries(const std::string& output_path,
                                                 std::chrono::system_clock::time_point run_started) {
  std::vector<std::string> removed;
  fs::path output(output_path);
  fs::path directory = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  const std::string prefix = "." + output.filename().string() + ".";
  std::error_code error;
  // Incremented with an error code: the folder is shared with other links, and a range-for's
  // increment throws when reading the folder fails.
  for (fs::directory_iterator entries(directory, error), end; !error && entries != end; entries.increment(error)) {
    const fs::directory_entry& entry = *entries;
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() < prefix.size() + 4 || name.substr(name.size() - 4) != ".tmp") continue;
    // The rest must be exactly <role>.<pid>.<token> (temporary_path): a role has no dot, so
    // `.a.b.link.<pid>.<token>.tmp`, a temporary of output `a.b`, is not one of output `a`'s.
    std::optional<long> pid = temporary_owner_pid(name.substr(prefix.size(), name.size() - prefix.size() - 4));
    if (!pid) continue;
    if (*pid == static_cast<long>(getpid()) || process_is_alive(*pid)) continue;
    std::error_code time_error;
    auto modified = fs::last_write_time(entry.path(), time_error);
    if (time_error) continue;
    auto modified_system = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
        modified - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
    if (modified_system >= run_started) continue;
    std::error_code remove_error;
    if (fs::remove(entry.path(), remove_error)) removed.push_back(entry.path().string());
  }
  return removed;
}

LinkExecutionResult execute_link_plan(const LinkPlan& plan, const LinkExecutionOptions& options, std::ostream& diagnostics) {
  LinkExecutionResult result;
  const auto run_started = std::chrono::system_clock::now();
  for (const auto& stale : sweep_stale_temporaries(plan.output_path, run_started)) {
    if (options.verbose) diagnostics << "llgo-wasm link: removed stale temporary " << stale << "\n";
  }
  TerminationGuard termination;
  auto fail = [&](size_t step_number, const LinkStep& step, const std::string& what) {
    remove_temporaries(plan);
    result.succeeded = false;
    result.error = "link step " + std::to_string(step_number) + "/" + std::to_string(plan.steps.size()) + " (" +
                   step.name + ") failed: " + what + "\n  the previous " + plan.output_path +
                   " (if any) is unchanged; no temporary file is left";
    return result;
  };
  {
    ProgressLine progress(options.show_progress, options.progress_delay);
    for (size_t index = 0; index < plan.steps.size(); ++index) {
      const LinkStep& step = plan.steps[index];
      const size_t number = index + 1;
      progress.set_step("step " + std::to_string(number) + "/" + std::to_string(plan.steps.size()) + " " + step.name);
      const auto step_started = Clock::now();
      std::string detail;
      switch (step.kind) {
        case LinkStepKind::link:
        case LinkStepKind::archive:
        case LinkStepKind::compile_source:
        case LinkStepKind::merge_modules:
        case LinkStepKind::optimise_module: {
          const std::string tool = fs::path(step.command.front()).filename().string();
          std::vector<std::string> command;
          try {
            command = command_with_decided_arguments(step);
          } catch (const std::exception& error) {
            return fail(number, step, error.what());
          }
          for (const auto& directory : step.create_directories) {
            std::error_code error;
            fs::create_directories(directory, error);
            if (error) return fail(number, step, "cannot create " + directory + ": " + error.message());
          }
          ChildResult run = run_child_process(command, false, step.environment, "",
                                              step.drop_absent_name_warnings ? keeps_binaryen_line : nullptr);
          if (termination.pending()) {
            fail(number, step, "interrupted by signal " + std::to_string(termination.pending()));
            termination.reraise_if_pending();
            return result;
          }
          if (!run.succeeded()) {
            std::string what = run.describe_failure(tool);
            if (!run.started) what += "\n  is the tool installed? (see docs/link-pipeline.md, tool discovery)";
            what += "\n  command: " + command_line(command);
            return fail(number, step, what);
          }
          for (const auto& output : step.outputs) {
            auto size = file_size(output);
            if (!size || *size == 0) {
              return fail(number, step, tool + " exited 0 but did not write " + output + "\n  command: " + command_line(command));
            }
          }
          // The wasm-opt step (asyncify+exnref, wasm-opt+exnref, ...): how much it changed the module.
          if (!step.inputs.empty() && step.outputs.size() == 1 && step.kind == LinkStepKind::optimise_module) {
            auto before = file_size(step.inputs.front());
            auto after = file_size(step.outputs.front());
            if (before && after) detail = size_change(*before, *after);
          } else if (step.outputs.size() == 1) {
            if (auto size = file_size(step.outputs.front())) detail = std::to_string(*size) + " B";
          }
          break;
        }
        case LinkStepKind::validate_module: {
          try {
            WasmModuleSummary module = read_wasm_module_file(step.inputs.front());
            auto violations = validate_module(module, step.expectations.value_or(ModuleExpectations{}));
            if (!violations.empty()) {
              std::string what = "the linked module breaks the " + plan.variant + " rules:";
              for (const auto& violation : violations) what += "\n    " + violation;
              return fail(number, step, what);
            }
            detail = std::to_string(module.imports.size()) + " imports, " + std::to_string(module.try_table_count) +
                     " try_table, 0 legacy try";
          } catch (const WasmDecodeError& error) {
            return fail(number, step, std::string("cannot read the module: ") + error.what());
          }
          break;
        }
        case LinkStepKind::analyse_asyncify: {
          try {
            result.asyncify = write_asyncify_arguments(step.inputs.front(), step.narrowing.value_or(AsyncifyNarrowingRequest{}),
                                                       step.outputs.at(0), step.outputs.at(1));
          } catch (const std::exception& error) {
            return fail(number, step, error.what());
          }
          detail = result.asyncify->summary();
          break;
        }
        case LinkStepKind::publish_output:
        case LinkStepKind::publish_folder: {
          const bool folder = step.kind == LinkStepKind::publish_folder;
          if (std::string problem = publish(step.inputs.front(), step.outputs.front(), folder); !problem.empty()) {
            return fail(number, step, problem);
          }
          detail = step.outputs.front();
          break;
        }
        case LinkStepKind::add_stack_check: {
          try {
            StackCheckReport report = add_stack_check_file(step.inputs.front(), step.outputs.front());
            if (report.names_missing) diagnostics << "llgo-wasm: warning: " << stack_check_needs_names("the linked module") << "\n";
            detail = report.describe();
            result.stack_check = report;
          } catch (const std::exception& error) {
            return fail(number, step, error.what());
          }
          break;
        }
        case LinkStepKind::write_source: {
          std::error_code error;
          fs::create_directories(fs::path(step.outputs.front()).parent_path(), error);
          std::ofstream file(step.outputs.front(), std::ios::trunc);
          file << step.content;
          file.close();
          if (error || !file) return fail(number, step, "cannot write " + step.outputs.front());
          detail = step.outputs.front();
          break;
        }
        case LinkStepKind::prepare_binaryen_shim: {
          try {
            prepare_binaryen_shim(step.shim->binaryen_root, step.outputs.at(0), step.outputs.at(1), step.shim->driver_executable,
                                  step.shim->narrow, step.shim->stack_check);
          } catch (const std::exception& error) {
            return fail(number, step, error.what());
          }
          detail = "EM_BINARYEN_ROOT=" + step.outputs.at(0);
          break;
        }
        case LinkStepKind::read_asyncify_report: {
          result.asyncify = read_asyncify_report(step.inputs.front());
          result.stack_check = read_stack_check_report(step.inputs.front());
          detail = result.asyncify ? result.asyncify->summary() : "emcc ran no Asyncify pass";
          if (result.stack_check) detail += "; " + result.stack_check->describe();
          break;
        }
      }
      const double seconds = std::chrono::duration<double>(Clock::now() - step_started).count();
      result.steps.push_back({step.name, seconds, detail});
      if (options.verbose) {
        char summary[64];
        std::snprintf(summary, sizeof summary, "llgo-wasm link: [%zu/%zu] %s %.3f s", number, plan.steps.size(),
                      step.name.c_str(), seconds);
        if (options.show_progress) diagnostics << "\r\033[K";
        diagnostics << summary << (detail.empty() ? "" : ", " + detail) << std::endl;
      }
      const bool published = step.kind == LinkStepKind::publish_output || step.kind == LinkStepKind::publish_folder;
      if (termination.pending() && !published) {
        fail(number, step, "interrupted by signal " + std::to_string(termination.pending()));
        termination.reraise_if_pending();
        return result;
      }
    }
  }
  remove_temporaries(plan);
  result.succeeded = true;
  termination.reraise_if_pending();
  return result;
}

}  // namespace llgo_wasm
