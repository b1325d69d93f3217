// check_run: run one command and check its exit status and output exactly.
//
// Every ctest case that runs a program under an engine goes through this checker, so the
// expectations of a case live where the case is declared (CMake, or the program's case file) and
// this program only runs and compares. It is compiled once per host build and starts in about a
// millisecond: a suite of thousands of cases pays no interpreter start per case.
//
//   check_run --exit N [--stdout-line L]... [--stderr-line L]... [--env K=V]... [--timeout S]
//             [--program FILE] -- COMMAND ARGS...
//       the exit status must be N, and each --stdout-line/--stderr-line must appear, in the
//       given order, among the output's lines.
//   check_run --case-file FILE.json --case NAME [--capabilities C,C,...] [--where LABEL]
//             [--engine-provides F]... [--go-trace] ... -- COMMAND
//       one case of a test program (tests/harness/test_program.h): the exit status and the exact
//       stdout and stderr its case file gives, with the stdin and environment it gives. A case
//       whose requirements do not hold with the capabilities C (those of the resolved target, its
//       context backend and stack mode: `llgo-wasm resolve --json`, effective.capabilities), or
//       that needs what the engine does not provide (F: the engine's "provides" in its
//       descriptor), is not run: its reason (with LABEL, a display label) is printed and the status
//       is 77 (ctest's SKIP_RETURN_CODE); one held back by a known bug runs, and is 77 while it
//       fails, 1 once it passes. --go-trace compares stderr only up to Go's goroutine trace line
//       (check_go_reference.py: Go's own build of the case's program).
//   check_run --exit 0 --stdout-names FILE.json -- PROGRAM --list
//       stdout's lines must be the case file's case names.
//   check_run --list-cases FILE.json CAPABILITIES [ENGINE-PROVIDES...]
//       one line per case, for CMake: "<case> <run|needs|known-bug> <requirement|-> <default|full>
//       <timing|->".
//   check_run --validate FILE.json
//       reads the case file and reports its first error.
//
// --program FILE names the built program a command runs: when it is missing the case fails with
// "not built" and how to build it (a full-tier program in a default-tier tree). A word of COMMAND
// holding {environment} becomes one word per variable of the environment the command runs with
// (an engine that passes the program none of its own: targets/schema.json, engines).
//
// The case file format is documented in docs/test-programs.md.
#include <nlohmann/json.hpp>

#include "llgo_wasm/target.hpp"
#include "llgo_wasm/target_capabilities.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char **environ;

namespace {

constexpr int kSkipped = 77;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

struct CaseFileError {
  std::string message;
};

// ---- the case file ---------------------------------------------------------------------------

// The capability vocabulary (llgo_wasm/target_capabilities.hpp), for messages.
std::string known_capabilities() {
  std::string known;
  for (const auto &capability : llgo_wasm::target_capability_vocabulary())
    known += (known.empty() ? "" : ", ") + std::string(capability.name);
  return known;
}

// "a,b,c" as a set; an empty string is the empty set. Every name must be a capability.
std::optional<std::set<std::string>> parse_capabilities(const std::string &list, std::string &error) {
  std::set<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (name.empty()) continue;
    if (!llgo_wasm::is_target_capability(name)) {
      error = "unknown capability '" + name + "'; known: " + known_capabilities();
      return std::nullopt;
    }
    names.insert(name);
  }
  return names;
}

const std::set<std::string> kCaseFields = {"exit",  "stdout", "stderr", "stderr_has", "requires",
                                           "about", "stdin",  "env",    "tier",       "timing"};

std::string position_of(const std::string &text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

struct CaseFile {
  std::string path;
  json data;
  const json &cases() const { return data.at("cases"); }
};

[[noreturn]] void case_error(const std::string &path, const std::string &what) {
  throw CaseFileError{path + ": " + what};
}

CaseFile load_case_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseFileError{"cannot read the case file " + path + ": " + std::strerror(errno)};
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  CaseFile file{path, {}};
  try {
    file.data = json::parse(text);
  } catch (const json::parse_error &error) {
    // "[json.exception.parse_error.101] parse error at line 1, column 25: syntax error ...": the
    // position is given the compiler's way instead.
    std::string message = error.what();
    auto column = message.find("column ");
    auto at = column == std::string::npos ? std::string::npos : message.find(": ", column);
    if (at != std::string::npos) message = message.substr(at + 2);
    throw CaseFileError{path + ":" + position_of(text, error.byte > 0 ? error.byte - 1 : 0) + ": " + message};
  }
  if (!file.data.is_object()) case_error(path, "not a JSON object");
  const json requirements = file.data.value("requirements", json::object());
  if (!requirements.is_object()) case_error(path, "\"requirements\" must be an object");
  for (const auto &[name, rule] : requirements.items()) {
    if (rule.is_object() && (rule.contains("only") || rule.contains("unless")))
      case_error(path, "requirement '" + name + "': \"only\" and \"unless\" (variant and backend patterns) are gone: "
                       "say which capabilities it needs (\"capabilities\": [\"single-worker\", \"!event-loop\"]; known: " +
                       known_capabilities() + ")");
    const int kinds = rule.is_object() ? int(rule.contains("capabilities")) + int(rule.contains("engine_provides")) : 0;
    if (kinds != 1 || !rule.contains("why"))
      case_error(path, "requirement '" + name + "' needs \"why\" and exactly one of \"capabilities\" and \"engine_provides\"");
    if (rule.contains("engine_provides")) {
      if (!rule["engine_provides"].is_string())
        case_error(path, "requirement '" + name + "': \"engine_provides\" names one thing an engine provides (a string)");
      continue;
    }
    // Every capability listed must hold ("!name": must not hold).
    const json &capabilities = rule["capabilities"];
    if (!capabilities.is_array() || capabilities.empty())
      case_error(path, "requirement '" + name + "': \"capabilities\" must be a non-empty list");
    for (const json &capability : capabilities) {
      if (!capability.is_string()) case_error(path, "requirement '" + name + "': every capability must be a string");
      std::string bare = capability.get<std::string>();
      if (!bare.empty() && bare[0] == '!') bare.erase(0, 1);
      if (!llgo_wasm::is_target_capability(bare))
        case_error(path, "requirement '" + name + "': unknown capability '" + capability.get<std::string>() +
                             "'; known: " + known_capabilities() + " (each may be negated with '!')");
    }
  }
  auto cases = file.data.find("cases");
  if (cases == file.data.end() || !cases->is_object() || cases->empty()) case_error(path, "no \"cases\" object");
  for (const auto &[name, c] : cases->items()) {
    const std::string where = "case '" + name + "': ";
    if (!c.is_object()) case_error(path, where + "must be an object");
    for (const auto &[field, value] : c.items()) {
      (void)value;
      if (!kCaseFields.count(field)) {
        std::string known;
        for (const auto &k : kCaseFields) known += (known.empty() ? "" : ", ") + k;
        case_error(path, where + "unknown field '" + field + "'; known: " + known);
      }
    }
    if (!c.contains("exit") || !c["exit"].is_number_integer())
      case_error(path, where + "\"exit\" (an integer) is required");
    for (const char *text_field : {"stdout", "stderr", "stderr_has", "about"})
      if (c.contains(text_field) && !c[text_field].is_string())
        case_error(path, where + "\"" + text_field + "\" must be a string");
    if (c.contains("stderr") && c.contains("stderr_has"))
      case_error(path, where + "give \"stderr\" or \"stderr_has\", not both");
    if (c.contains("stdin")) {
      const json &s = c["stdin"];
      bool ok = s.is_object() && s.contains("after_ms") && s["after_ms"].is_number_integer() &&
                s.contains("data") && s["data"].is_string() &&
                (!s.contains("after_line") || s["after_line"].is_string());
      if (ok)
        for (const auto &[field, value] : s.items()) {
          (void)value;
          if (field != "after_line" && field != "after_ms" && field != "data") ok = false;
        }
      if (!ok)
        case_error(path, where + "\"stdin\" must be {\"after_line\": \"...\" (optional), \"after_ms\": N, \"data\": \"...\"}");
    }
    if (c.contains("env")) {
      bool ok = c["env"].is_object();
      if (ok)
        for (const auto &[k, v] : c["env"].items()) {
          (void)k;
          if (!v.is_string()) ok = false;
        }
      if (!ok) case_error(path, where + "\"env\" must map names to strings");
    }
    if (c.contains("tier") && c["tier"] != "default" && c["tier"] != "full")
      case_error(path, where + "\"tier\" must be \"default\" or \"full\"");
    if (c.contains("timing") && !c["timing"].is_string())
      case_error(path, where + "\"timing\" must be a string: why the case needs the wall clock");
    if (c.contains("requires")) {
      if (!c["requires"].is_array()) case_error(path, where + "\"requires\" must be a list");
      for (const json &r : c["requires"]) {
        if (!r.is_string() || !requirements.contains(r.get<std::string>()))
          case_error(path, where + "requires " + r.dump() + ", which \"requirements\" does not define");
      }
    }
  }
  return file;
}

// The case file at `path`, or nullopt after printing why it cannot be read to `out` (stderr
// for a listing, stdout with "FAIL: " for a case: ctest shows a case's stdout).
std::optional<CaseFile> read_case_file(const std::string &path, std::FILE *out, const char *prefix) {
  try {
    return load_case_file(path);
  } catch (const CaseFileError &error) {
    std::fprintf(out, "%s%s\n", prefix, error.message.c_str());
    return std::nullopt;
  }
}

// The first requirement of the case that does not hold with `capabilities` under an engine that
// provides `provides`, or "".
std::string unmet_requirement(const CaseFile &file, const std::string &name, const std::set<std::string> &capabilities,
                              const std::set<std::string> &provides) {
  const json &c = file.cases().at(name);
  if (!c.contains("requires")) return "";
  for (const json &r : c["requires"]) {
    const std::string requirement = r.get<std::string>();
    const json &rule = file.data["requirements"][requirement];
    if (rule.contains("engine_provides")) {
      if (!provides.count(rule["engine_provides"].get<std::string>())) return requirement;
      continue;
    }
    for (const json &capability : rule["capabilities"]) {
      std::string bare = capability.get<std::string>();
      const bool negated = bare[0] == '!';
      if (negated) bare.erase(0, 1);
      if (capabilities.count(bare) == negated) return requirement;
    }
  }
  return "";
}

std::string case_tier(const json &c) {
  if (c.contains("timing")) return "full";
  return c.value("tier", std::string("default"));
}

// ---- running the command ---------------------------------------------------------------------

struct StdinFeed {
  std::optional<std::string> after_line;
  long after_ms = 0;
  std::string data;
};

struct Result {
  int status = -1;          // exit status, or 128 + signal
  std::string out, err;
  std::string failure;      // non-empty: the command could not be run to its end
};

std::string join(const std::vector<std::string> &words) {
  std::string s;
  for (const auto &w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

void set_cloexec(int fd) { fcntl(fd, F_SETFD, FD_CLOEXEC); }

Result run(const std::vector<std::string> &command, const std::map<std::string, std::string> &extra_env,
           double timeout_seconds, const std::optional<StdinFeed> &feed) {
  Result result;
  int out_pipe[2], err_pipe[2], in_pipe[2] = {-1, -1};
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0 || (feed && pipe(in_pipe) != 0)) {
    result.failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  int exec_errno_pipe[2];
  if (pipe(exec_errno_pipe) != 0) {
    result.failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  for (int fd : {out_pipe[0], err_pipe[0], exec_errno_pipe[0], exec_errno_pipe[1]}) set_cloexec(fd);
  if (feed) set_cloexec(in_pipe[1]);

  std::vector<std::string> env_strings;
  std::map<std::string, std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string entry = *e;
    auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto &[k, v] : extra_env) env[k] = v;
  for (const auto &[k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char *> envp, argv;
  for (auto &s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = llgo_wasm::expand_environment_words(command, env_strings);
  for (auto &s : args) argv.push_back(s.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    result.failure = std::string("cannot fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);  // its own process group: a timeout ends whatever it started too
    if (feed) {
      dup2(in_pipe[0], 0);
    } else {
      int null = open("/dev/null", O_RDONLY);
      if (null >= 0) dup2(null, 0);
    }
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (feed) close(in_pipe[0]);
    signal(SIGPIPE, SIG_DFL);
    execvpe(argv[0], argv.data(), envp.data());
    int e = errno;
    ssize_t ignored = write(exec_errno_pipe[1], &e, sizeof e);
    (void)ignored;
    _exit(127);
  }
  setpgid(pid, pid);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_errno_pipe[1]);
  if (feed) close(in_pipe[0]);
  int exec_errno = 0;
  if (read(exec_errno_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    waitpid(pid, nullptr, 0);
    close(exec_errno_pipe[0]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (feed) close(in_pipe[1]);
    result.failure = "cannot run " + command[0] + ": " + std::strerror(exec_errno);
    return result;
  }
  close(exec_errno_pipe[0]);

  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
  int fds[2] = {out_pipe[0], err_pipe[0]};
  bool open_fd[2] = {true, true};
  std::string *sinks[2] = {&result.out, &result.err};
  int feed_fd = feed ? in_pipe[1] : -1;
  bool line_seen = feed && !feed->after_line;
  std::optional<Clock::time_point> feed_at;
  if (line_seen) feed_at = start + std::chrono::milliseconds(feed->after_ms);
  std::size_t scanned = 0;  // stdout bytes already searched for after_line
  bool exited = false;
  int wait_status = 0;
  std::optional<Clock::time_point> exited_at;

  auto check_line = [&] {
    if (!feed || line_seen) return;
    std::size_t nl;
    while ((nl = result.out.find('\n', scanned)) != std::string::npos) {
      if (result.out.compare(scanned, nl - scanned, *feed->after_line) == 0) {
        line_seen = true;
        feed_at = Clock::now() + std::chrono::milliseconds(feed->after_ms);
        return;
      }
      scanned = nl + 1;
    }
  };

  while (open_fd[0] || open_fd[1] || !exited) {
    const auto now = Clock::now();
    if (!exited) {
      pid_t r = waitpid(pid, &wait_status, WNOHANG);
      if (r == pid) {
        exited = true;
        exited_at = now;
      }
    }
    if (!exited && now >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      for (int i = 0; i < 2; ++i) close(fds[i]);
      if (feed_fd >= 0) close(feed_fd);
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds);
      result.failure = std::string("timed out after ") + seconds + " s: " + join(command);
      return result;
    }
    if (exited && exited_at && now - *exited_at > std::chrono::seconds(30)) {
      for (int i = 0; i < 2; ++i) close(fds[i]);
      if (feed_fd >= 0) close(feed_fd);
      result.failure = command[0] + " exited, but its stdout or stderr stayed open 30 s longer "
                       "(a process it started still holds them)";
      return result;
    }
    if (feed_fd >= 0 && feed_at && now >= *feed_at) {
      // The program may have ended without reading: its output says what went wrong.
      std::size_t written = 0;
      while (written < feed->data.size()) {
        ssize_t n = write(feed_fd, feed->data.data() + written, feed->data.size() - written);
        if (n <= 0) break;
        written += static_cast<std::size_t>(n);
      }
      close(feed_fd);
      feed_fd = -1;
    }
    pollfd pfds[2];
    int n = 0;
    int which[2];
    for (int i = 0; i < 2; ++i)
      if (open_fd[i]) {
        pfds[n] = {fds[i], POLLIN, 0};
        which[n++] = i;
      }
    int wait_ms = exited ? 100 : 20;  // waitpid has no descriptor to poll: look again soon
    if (feed_fd >= 0 && feed_at) {
      auto until = std::chrono::duration_cast<std::chrono::milliseconds>(*feed_at - now).count();
      if (until < wait_ms) wait_ms = until < 0 ? 0 : static_cast<int>(until);
    }
    if (n == 0) {
      if (!exited) usleep(static_cast<useconds_t>(wait_ms) * 1000);
      continue;
    }
    int ready = poll(pfds, n, wait_ms);
    if (ready < 0 && errno != EINTR) {
      result.failure = std::string("poll: ") + std::strerror(errno);
      kill(-pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      return result;
    }
    for (int k = 0; k < n; ++k) {
      if (!(pfds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      ssize_t got = read(pfds[k].fd, buffer, sizeof buffer);
      if (got > 0) {
        sinks[which[k]]->append(buffer, static_cast<std::size_t>(got));
        if (which[k] == 0) check_line();
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(pfds[k].fd);
        open_fd[which[k]] = false;
      }
    }
  }
  if (feed_fd >= 0) close(feed_fd);
  if (WIFEXITED(wait_status)) {
    result.status = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    result.status = 128 + WTERMSIG(wait_status);
  }
  return result;
}

// ---- comparing -------------------------------------------------------------------------------

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    std::string line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    start = nl + 1;
  }
  return lines;
}

// The first wanted line missing (in order) from lines, or nullopt.
std::optional<std::string> missing_in_order(const std::vector<std::string> &lines,
                                            const std::vector<std::string> &wanted) {
  std::size_t pos = 0;
  for (const auto &w : wanted) {
    while (pos < lines.size() && lines[pos] != w) ++pos;
    if (pos == lines.size()) return w;
    ++pos;
  }
  return std::nullopt;
}

// Go's stderr cut after its goroutine trace line, written as this runtime writes it (no ':').
std::string up_to_go_trace_line(const std::string &stderr_text) {
  std::string kept;
  for (const auto &line : lines_of(stderr_text)) {
    const char *p = line.c_str();
    bool trace = std::strncmp(p, "goroutine ", 10) == 0;
    if (trace) {
      p += 10;
      if (!std::isdigit(static_cast<unsigned char>(*p))) trace = false;
      while (std::isdigit(static_cast<unsigned char>(*p))) ++p;
      trace = trace && std::strcmp(p, " [running]:") == 0;
    }
    if (trace) {
      kept += line.substr(0, line.size() - 1) + "\n";
      break;
    }
    kept += line + "\n";
  }
  return kept;
}

std::string json_quoted(const std::string &text) { return json(text).dump(-1, ' ', false, json::error_handler_t::replace); }

int usage(const char *message) {
  std::fprintf(stderr, "check_run: %s\n(see the comment at the top of tests/harness/check_run.cpp)\n", message);
  return 2;
}

struct Options {
  std::optional<int> exit_status;
  std::string case_file, case_name, where, stdout_names, program;
  std::optional<std::string> capabilities;
  bool go_trace = false;
  std::vector<std::string> stdout_lines, stderr_lines;
  std::set<std::string> engine_provides;
  std::map<std::string, std::string> env;
  double timeout = 300;
  std::vector<std::string> command;
};

int list_cases(const std::string &path, const std::string &capability_list, const std::set<std::string> &provides) {
  std::string error;
  const std::optional<std::set<std::string>> capabilities = parse_capabilities(capability_list, error);
  if (!capabilities) {
    std::fprintf(stderr, "check_run --list-cases %s: %s\n", path.c_str(), error.c_str());
    return 2;
  }
  std::optional<CaseFile> read = read_case_file(path, stderr, "");
  if (!read) return 1;
  const CaseFile &file = *read;
  for (const auto &[name, c] : file.cases().items()) {
    std::string requirement = unmet_requirement(file, name, *capabilities, provides);
    std::string kind = "run";
    if (!requirement.empty())
      kind = file.data["requirements"][requirement].value("known_bug", false) ? "known-bug" : "needs";
    std::printf("%s %s %s %s %s\n", name.c_str(), kind.c_str(), requirement.empty() ? "-" : requirement.c_str(),
                case_tier(c).c_str(), c.contains("timing") ? "timing" : "-");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--list-cases") {
    if (args.size() < 3) return usage("--list-cases FILE.json CAPABILITIES [ENGINE-PROVIDES...]");
    return list_cases(args[1], args[2], std::set<std::string>(args.begin() + 3, args.end()));
  }
  if (!args.empty() && args[0] == "--validate") {
    if (args.size() != 2) return usage("--validate FILE.json");
    return read_case_file(args[1], stderr, "") ? 0 : 1;
  }

  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--") {
      o.command.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    std::string value;
    auto eq = a.find('=');
    bool inline_value = a.rfind("--", 0) == 0 && eq != std::string::npos;
    std::string name = inline_value ? a.substr(0, eq) : a;
    auto take = [&]() -> bool {
      if (inline_value) {
        value = a.substr(eq + 1);
        return true;
      }
      if (i + 1 >= args.size()) return false;
      value = args[++i];
      return true;
    };
    if (name == "--go-trace") {
      o.go_trace = true;
      continue;
    }
    static const std::set<std::string> valued = {"--exit",        "--case-file",   "--case",  "--where",
                                                  "--capabilities", "--stdout-names", "--stdout-line", "--stderr-line",
                                                  "--env",         "--timeout",     "--program",
                                                  "--engine-provides"};
    if (!valued.count(name)) return usage(("unknown option " + a).c_str());
    if (!take()) return usage((name + " needs a value").c_str());
    try {
      if (name == "--exit") o.exit_status = std::stoi(value);
      else if (name == "--timeout") o.timeout = std::stod(value);
    } catch (const std::exception &) {
      return usage((name + ": not a number: " + value).c_str());
    }
    if (name == "--case-file") o.case_file = value;
    else if (name == "--case") o.case_name = value;
    else if (name == "--where") o.where = value;
    else if (name == "--capabilities") o.capabilities = value;
    else if (name == "--stdout-names") o.stdout_names = value;
    else if (name == "--stdout-line") o.stdout_lines.push_back(value);
    else if (name == "--stderr-line") o.stderr_lines.push_back(value);
    else if (name == "--program") o.program = value;
    else if (name == "--engine-provides") o.engine_provides.insert(value);
    else if (name == "--env") {
      auto e = value.find('=');
      if (e == std::string::npos) return usage(("--env " + value + ": not NAME=VALUE").c_str());
      o.env[value.substr(0, e)] = value.substr(e + 1);
    }
  }
  if (o.command.empty()) return usage("no command given after --");

  std::optional<std::string> expected_stdout, expected_stderr, stderr_has, known_bug;
  std::optional<StdinFeed> feed;
  if (!o.case_name.empty()) {
    if (o.case_file.empty()) return usage("--case needs --case-file");
    std::optional<CaseFile> read = read_case_file(o.case_file, stdout, "FAIL: ");
    if (!read) return 1;
    const CaseFile &file = *read;
    if (!file.cases().contains(o.case_name)) {
      std::printf("FAIL: %s has no case '%s'\n", o.case_file.c_str(), o.case_name.c_str());
      return 1;
    }
    if (o.capabilities) {
      std::string error;
      const std::optional<std::set<std::string>> capabilities = parse_capabilities(*o.capabilities, error);
      if (!capabilities) return usage(("--capabilities: " + error).c_str());
      std::string requirement = unmet_requirement(file, o.case_name, *capabilities, o.engine_provides);
      if (!requirement.empty()) {
        const json &rule = file.data["requirements"][requirement];
        std::string why = "needs " + requirement + ": " + rule["why"].get<std::string>();
        if (!rule.value("known_bug", false)) {
          std::printf("skipped on %s: %s\n", o.where.c_str(), why.c_str());
          return kSkipped;
        }
        known_bug = why;
      }
    }
    const json &c = file.cases()[o.case_name];
    o.exit_status = c["exit"].get<int>();
    expected_stdout = c.value("stdout", std::string());
    if (c.contains("stderr_has")) {
      stderr_has = c["stderr_has"].get<std::string>();
    } else {
      expected_stderr = c.value("stderr", std::string());
    }
    if (c.contains("stdin")) {
      StdinFeed f;
      if (c["stdin"].contains("after_line")) f.after_line = c["stdin"]["after_line"].get<std::string>();
      f.after_ms = c["stdin"]["after_ms"].get<long>();
      f.data = c["stdin"]["data"].get<std::string>();
      feed = f;
    }
    if (c.contains("env"))
      for (const auto &[k, v] : c["env"].items()) o.env.emplace(k, v.get<std::string>());
  }
  if (!o.exit_status) return usage("--exit N (or --case) is required");
  if (!o.program.empty()) {
    struct stat st;
    if (stat(o.program.c_str(), &st) != 0) {
      std::printf("FAIL: %s is not built: the program belongs to the full test tier; configure the tree with "
                  "-DLLGO_WASM_FULL_TESTS=ON (tools/run-tests.sh --full does) and build it\n",
                  o.program.c_str());
      return 1;
    }
  }

  Result r = run(o.command, o.env, o.timeout, feed);
  if (!r.failure.empty()) {
    std::printf("FAIL: %s\n", r.failure.c_str());
    if (!r.out.empty() || !r.err.empty())
      std::printf("--- stdout ---\n%s--- stderr ---\n%s", r.out.c_str(), r.err.c_str());
    return 1;
  }
  std::vector<std::string> problems;
  if (r.status != *o.exit_status)
    problems.push_back("exit status " + std::to_string(r.status) + ", expected " + std::to_string(*o.exit_status));
  const auto out_lines = lines_of(r.out), err_lines = lines_of(r.err);
  if (auto m = missing_in_order(out_lines, o.stdout_lines)) problems.push_back("stdout lacks (in order) the line: " + json_quoted(*m));
  if (auto m = missing_in_order(err_lines, o.stderr_lines)) problems.push_back("stderr lacks (in order) the line: " + json_quoted(*m));
  if (expected_stdout && r.out != *expected_stdout)
    problems.push_back("stdout is " + json_quoted(r.out) + ", expected " + json_quoted(*expected_stdout));
  const std::string compared_stderr = o.go_trace ? up_to_go_trace_line(r.err) : r.err;
  if (expected_stderr && compared_stderr != *expected_stderr)
    problems.push_back(std::string(o.go_trace ? "stderr up to Go's trace line" : "stderr") + " is " +
                       json_quoted(compared_stderr) + ", expected " + json_quoted(*expected_stderr));
  if (stderr_has && r.err.find(*stderr_has) == std::string::npos) problems.push_back("stderr lacks " + json_quoted(*stderr_has));
  if (!o.stdout_names.empty()) {
    std::optional<CaseFile> names = read_case_file(o.stdout_names, stdout, "FAIL: ");
    if (!names) return 1;
    std::set<std::string> expected, listed(out_lines.begin(), out_lines.end());
    for (const auto &[name, c] : names->cases().items()) {
      (void)c;
      expected.insert(name);
    }
    if (listed != expected) {
      std::string extra, lacking;
      for (const auto &n : listed)
        if (!expected.count(n)) extra += (extra.empty() ? "" : ", ") + n;
      for (const auto &n : expected)
        if (!listed.count(n)) lacking += (lacking.empty() ? "" : ", ") + n;
      problems.push_back("the program lists cases its case file lacks: [" + extra +
                         "]; the case file has cases the program lacks: [" + lacking + "]");
    }
  }
  std::printf("$ %s\n", join(o.command).c_str());
  auto joined_problems = [&] {
    std::string s;
    for (const auto &p : problems) s += (s.empty() ? "" : "; ") + p;
    return s;
  };
  if (known_bug) {
    if (problems.empty()) {
      std::printf("FAIL: the case passes on %s, but its case file still says %s (a known bug): remove that requirement\n",
                  o.where.c_str(), known_bug->c_str());
      return 1;
    }
    std::printf("skipped on %s, %s (a known bug, still there: %s)\n", o.where.c_str(), known_bug->c_str(),
                joined_problems().c_str());
    return kSkipped;
  }
  if (!problems.empty()) {
    std::printf("FAIL: %s\n--- stdout ---\n%s--- stderr ---\n%s", joined_problems().c_str(), r.out.c_str(), r.err.c_str());
    return 1;
  }
  std::printf("ok: exit %d, %zu stdout lines, %zu stderr lines\n", r.status, out_lines.size(), err_lines.size());
  return 0;
}
