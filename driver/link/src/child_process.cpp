// posix_spawn-based child runner (see child_process.hpp).
#include "llgo_wasm/child_process.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace llgo_wasm {
namespace {

std::atomic<int> running_child{0};

std::string signal_name(int signal_number) {
  switch (signal_number) {
    case SIGKILL: return "SIGKILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal " + std::to_string(signal_number);
  }
}

// A pipe whose write end becomes the child's `target` descriptor; false (start_error set) if
// there is none to be had.
bool add_pipe_to_child(posix_spawn_file_actions_t& actions, int fds[2], int target, ChildResult& result) {
  if (pipe(fds) != 0) {
    result.start_error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], target);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  return true;
}

}  // namespace

int current_child_process_id() { return running_child.load(); }

std::string ChildResult::describe_failure(const std::string& tool) const {
  if (!started) return "could not run " + tool + ": " + start_error;
  if (terminating_signal != 0) return tool + " was killed by " + signal_name(terminating_signal);
  if (exited && exit_status != 0) return tool + " failed with exit status " + std::to_string(exit_status);
  return tool + " ended abnormally";
}

ChildResult run_child_process(const std::vector<std::string>& command, bool capture_stdout,
                              const std::vector<std::string>& environment, const std::string& stderr_path,
                              const std::function<bool(std::string_view)>& keep_stderr_line) {
  ChildResult result;
  if (command.empty() || command.front().empty()) {
    result.start_error = "no program given";
    return result;
  }
  if (keep_stderr_line && (capture_stdout || !stderr_path.empty())) {
    result.start_error = "a stderr filter needs stdout uncaptured and no stderr file";
    return result;
  }
  std::vector<char*> argv;
  for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);

  int pipe_fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (capture_stdout && !add_pipe_to_child(actions, pipe_fds, STDOUT_FILENO, result)) {
    posix_spawn_file_actions_destroy(&actions);
    return result;
  }
  if (!stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  int error_fds[2] = {-1, -1};
  if (keep_stderr_line && !add_pipe_to_child(actions, error_fds, STDERR_FILENO, result)) {
    posix_spawn_file_actions_destroy(&actions);
    if (capture_stdout) {
      close(pipe_fds[0]);
      close(pipe_fds[1]);
    }
    return result;
  }
  std::vector<char*> child_environment;
  for (char** entry = environ; *entry; ++entry) {
    std::string_view current(*entry);
    bool replaced = false;
    for (const auto& setting : environment) {
      const size_t equals = setting.find('=');
      if (current.substr(0, current.find('=') + 1) == std::string_view(setting).substr(0, equals + 1)) replaced = true;
    }
    if (!replaced) child_environment.push_back(*entry);
  }
  for (const auto& setting : environment) child_environment.push_back(const_cast<char*>(setting.c_str()));
  child_environment.push_back(nullptr);
  pid_t pid = 0;
  int spawn_error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), child_environment.data());
  posix_spawn_file_actions_destroy(&actions);
  if (capture_stdout) close(pipe_fds[1]);
  if (keep_stderr_line) close(error_fds[1]);
  if (spawn_error != 0) {
    result.start_error = std::string(std::strerror(spawn_error)) + " (" + command.front() + ")";
    if (capture_stdout) close(pipe_fds[0]);
    if (keep_stderr_line) close(error_fds[0]);
    return result;
  }
  result.started = true;
  running_child.store(pid);
  if (capture_stdout) {
    char buffer[4096];
    for (;;) {
      ssize_t count = read(pipe_fds[0], buffer, sizeof buffer);
      if (count > 0) {
        result.captured_stdout.append(buffer, static_cast<size_t>(count));
      } else if (count == 0 || errno != EINTR) {
        break;
      }
    }
    close(pipe_fds[0]);
  }
  if (keep_stderr_line) {
    std::string pending;
    auto pass_on = [&](std::string_view line) {
      if (keep_stderr_line(line)) {
        std::fwrite(line.data(), 1, line.size(), stderr);
        std::fputc('\n', stderr);
      }
    };
    char buffer[4096];
    for (;;) {
      ssize_t count = read(error_fds[0], buffer, sizeof buffer);
      if (count > 0) {
        pending.append(buffer, static_cast<size_t>(count));
        for (size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1)) {
          pass_on(std::string_view(pending).substr(0, end));
        }
      } else if (count == 0 || errno != EINTR) {
        break;
      }
    }
    if (!pending.empty()) pass_on(pending);
    std::fflush(stderr);
    close(error_fds[0]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.started = false;
      result.start_error = std::string("waitpid: ") + std::strerror(errno);
      running_child.store(0);
      return result;
    }
  }
  running_child.store(0);
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.terminating_signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace llgo_wasm
