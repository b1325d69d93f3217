// The EM_BINARYEN_ROOT shim that narrows emcc's Asyncify (see emscripten_asyncify.hpp).
#include "llgo_wasm/emscripten_asyncify.hpp"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "llgo_wasm/asyncify_analysis.hpp"
#include "llgo_wasm/child_process.hpp"
#include "llgo_wasm/stack_check.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;

std::string single_quoted(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}


// A Binaryen list argument's items: inline "a,b" or "@file" (one per line, or comma separated).
std::vector<std::string> list_items(const std::string& value) {
  std::string text = value;
  if (value.starts_with("@")) {
    std::ifstream file(value.substr(1));
    text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }
  const char separator = text.find('\n') != std::string::npos ? '\n' : ',';
  std::vector<std::string> items;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(separator, begin);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(begin, end - begin);
    while (!item.empty() && (item.back() == '\r' || item.back() == ' ')) item.pop_back();
    if (!item.empty()) items.push_back(item);
    begin = end + 1;
  }
  return items;
}

// Rewrites emcc's wasm-opt arguments: adds the functions that cannot switch to the remove-list.
AsyncifyNarrowingReport narrow_emscripten_arguments(std::vector<std::string>& arguments, const std::string& list_path) {
  const auto started = std::chrono::steady_clock::now();
  AsyncifyNarrowingReport report;
  auto fallback = [&](const std::string& reason) {
    report.fallback_reason = reason;
    return report;
  };
  static const std::set<std::string> takes_value = {"-o", "--output", "-ism", "--input-source-map", "-osm",
                                                     "--output-source-map", "-osu", "--output-source-map-url",
                                                     "-pa", "--pass-arg"};
  std::vector<std::string> inputs, switch_imports, table_calls, user_remove, user_add;
  std::optional<size_t> remove_at;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& arg = arguments[i];
    if (takes_value.count(arg)) {
      ++i;
      continue;
    }
    if (!arg.starts_with("-")) inputs.push_back(arg);
    const std::string pass_arg = "--pass-arg=asyncify-";
    if (!arg.starts_with(pass_arg)) continue;
    const std::string setting = arg.substr(pass_arg.size());
    const size_t at = setting.find('@');
    const std::string key = setting.substr(0, at), value = at == std::string::npos ? "" : setting.substr(at + 1);
    if (key == "imports") switch_imports = list_items(value);
    if (key == "onlylist" || key == "whitelist") return fallback("an ASYNCIFY_ONLY list was given; it is used as it is");
    if (key == "removelist" || key == "blacklist") {
      user_remove = list_items(value);
      remove_at = i;
    }
    if (key == "addlist") user_add = list_items(value);
  }
  if (inputs.size() != 1) return fallback("cannot tell wasm-opt's input module among " + std::to_string(inputs.size()) + " arguments");
  for (const auto& pattern : switch_imports) {
    if (pattern.starts_with("env.invoke_")) table_calls.push_back(pattern);  // JS calls the table entry
  }
  try {
    // emcc runs --asyncify only for -sASYNCIFY=1, whose glue hands JavaScript wrappers of the
    // exports, never the exported functions: what JavaScript puts in the table is host code.
    AsyncifyAnalysis analysis = analyse_asyncify(read_wasm_module_file(inputs.front()),
                                                 {switch_imports, table_calls, user_remove, true});
    report = report_of(analysis);
    report.asyncify_needed = true;  // emcc's pass runs whatever we say; it just instruments less
    std::vector<std::string> listed = user_remove;
    for (const auto& name : analysis.removable_names()) {
      bool added = false;
      for (const auto& pattern : user_add) added = added || asyncify_pattern_matches(pattern, name);
      if (!added) listed.push_back(name);
    }
    report.listed_non_switching = static_cast<unsigned>(listed.size() - user_remove.size());
    // The functions that start the unwind (the raw backend's llgo_wasmcontext_suspend) are not
    // instrumented, so no caller may absorb them: emcc's -O runs before --asyncify, and Binaryen
    // inlines a function left with one caller (a program that never parks keeps only
    // llgo_gosched's call of suspend, and the merged function re-ran the requeue on every rewind).
    std::vector<std::string> keep_out_of_line;
    for (uint32_t index : analysis.start_switch) {
      const std::string& name = analysis.binaryen_names[index];
      if (!name.empty()) keep_out_of_line.push_back("--no-inline=" + name);
    }
    if (!listed.empty()) {
      write_list_file(list_path, listed);
      const std::string list_argument = "--pass-arg=asyncify-removelist@@" + list_path;
      if (remove_at) arguments[*remove_at] = list_argument;
      else arguments.push_back(list_argument);
    }
    // Inserted last: remove_at indexes the arguments as emcc passed them.
    arguments.insert(arguments.begin(), keep_out_of_line.begin(), keep_out_of_line.end());
  } catch (const std::exception& error) {
    return fallback(error.what());
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

// wasm-opt's input module among its arguments (the one positional argument), if there is one.
std::optional<std::string> wasm_opt_input(const std::vector<std::string>& arguments) {
  static const std::set<std::string> takes_value = {"-o", "--output", "-ism", "--input-source-map", "-osm",
                                                     "--output-source-map", "-osu", "--output-source-map-url",
                                                     "-pa", "--pass-arg"};
  std::vector<std::string> inputs;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (takes_value.count(arguments[i])) {
      ++i;
      continue;
    }
    if (!arguments[i].starts_with("-")) inputs.push_back(arguments[i]);
  }
  if (inputs.size() != 1) return std::nullopt;
  return inputs.front();
}

std::string stack_check_report_path(const std::string& report_path) { return report_path + ".stack-check.json"; }

void write_stack_check_report(const std::string& report_path, const StackCheckReport& report) {
  nlohmann::json document = {{"functions", report.functions}, {"checks", report.checks}, {"restores", report.restores},
                             {"dropped_sections", report.dropped_sections}, {"bytes_before", report.bytes_before},
                             {"bytes_after", report.bytes_after}};
  std::ofstream(stack_check_report_path(report_path), std::ios::trunc) << document.dump() << "\n";
}

void write_report(const std::string& path, const AsyncifyNarrowingReport& report) {
  nlohmann::json document = {{"analysed", report.analysed},
                             {"fallback_reason", report.fallback_reason},
                             {"asyncify_needed", report.asyncify_needed},
                             {"defined_functions", report.defined_functions},
                             {"can_switch", report.can_switch},
                             {"start_switch", report.start_switch},
                             {"listed_non_switching", report.listed_non_switching},
                             {"left_to_binaryen", report.left_to_binaryen},
                             {"can_switch_names", report.can_switch_names},
                             {"switch_imports_called", report.switch_imports_called},
                             {"seconds", report.seconds}};
  std::ofstream(path, std::ios::trunc) << document.dump() << "\n";
}

}  // namespace

void prepare_binaryen_shim(const std::string& binaryen_root, const std::string& shim_root, const std::string& report_path,
                           const std::string& driver_executable, bool narrow, bool stack_check) {
  const fs::path real_bin = fs::path(binaryen_root) / "bin", shim_bin = fs::path(shim_root) / "bin";
  std::error_code error;
  fs::create_directories(shim_bin, error);
  if (error) throw std::runtime_error("cannot create " + shim_bin.string() + ": " + error.message());
  fs::directory_iterator tools(real_bin, error);
  if (error) throw std::runtime_error("cannot list Binaryen's tools in " + real_bin.string() + ": " + error.message());
  for (const auto& tool : tools) {
    if (tool.path().filename() == "wasm-opt") continue;
    fs::create_symlink(tool.path(), shim_bin / tool.path().filename(), error);
    if (error) throw std::runtime_error("cannot link " + tool.path().string() + ": " + error.message());
  }
  // Binaryen's other folders (lib, share, ...) too, for layouts whose tools look beside bin/.
  for (const auto& entry : fs::directory_iterator(binaryen_root, error)) {
    if (entry.path().filename() == "bin") continue;
    fs::create_symlink(entry.path(), fs::path(shim_root) / entry.path().filename(), error);
    if (error) throw std::runtime_error("cannot link " + entry.path().string() + ": " + error.message());
  }
  const fs::path script = shim_bin / "wasm-opt";
  std::ofstream(script, std::ios::trunc)
      << "#!/bin/sh\n# llgo-wasm: narrows emcc's Asyncify, then runs the real wasm-opt (docs/link-pipeline.md)\nexec "
      << single_quoted(driver_executable) << " link "
      << emscripten_wasm_opt_shim_flag << " " << single_quoted((real_bin / "wasm-opt").string()) << " "
      << single_quoted(report_path) << (narrow ? "" : " " + std::string(kShimNoNarrowing))
      << (stack_check ? " " + std::string(kShimStackCheck) : "") << " \"$@\"\n";
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec, error);
  if (error) throw std::runtime_error("cannot make " + script.string() + " executable: " + error.message());
}

int run_emscripten_wasm_opt_shim(const std::vector<std::string>& arguments) {
  if (arguments.size() < 2) {
    std::cerr << "llgo-wasm link " << emscripten_wasm_opt_shim_flag << ": needs REAL_WASM_OPT REPORT_FILE [arguments...]\n";
    return 2;
  }
  const std::string report_path = arguments[1];
  size_t first = 2;
  bool narrow = true, stack_check = false;
  for (; first < arguments.size(); ++first) {
    if (arguments[first] == kShimNoNarrowing) narrow = false;
    else if (arguments[first] == kShimStackCheck) stack_check = true;
    else break;
  }
  std::vector<std::string> passed(arguments.begin() + static_cast<long>(first), arguments.end());
  bool asyncify = false;
  for (const auto& arg : passed) asyncify = asyncify || arg == "--asyncify";
  if (stack_check) {
    // Before emcc's optimiser and Asyncify, in the module wasm-opt is about to read (in place).
    if (auto input = wasm_opt_input(passed)) {
      try {
        StackCheckReport report = add_stack_check_file(*input, *input);
        if (report.names_missing) {
          std::cerr << "llgo-wasm: warning: " << stack_check_needs_names("the module emcc gave wasm-opt (" + *input + ")")
                    << "\n";
        }
        if (report.instrumented) write_stack_check_report(report_path, report);
      } catch (const std::exception& error) {
        std::cerr << "llgo-wasm link: the stack-overflow check failed: " << error.what() << "\n";
        return 1;
      }
    }
  }
  if (asyncify && narrow) write_report(report_path, narrow_emscripten_arguments(passed, report_path + ".list"));
  std::vector<std::string> command = {arguments[0]};
  command.insert(command.end(), passed.begin(), passed.end());
  // Binaryen warns once per listed name that the optimiser run before --asyncify removed
  // (inlined); those lines are expected and dropped, everything else is passed on.
  ChildResult run = run_child_process(command, false, {}, "", asyncify ? keeps_binaryen_line : nullptr);
  if (!run.started) {
    std::cerr << "llgo-wasm link: " << run.describe_failure("wasm-opt") << "\n";
    return 127;
  }
  if (run.terminating_signal != 0) return 128 + run.terminating_signal;
  return run.exit_status;
}

std::optional<AsyncifyNarrowingReport> read_asyncify_report(const std::string& report_path) {
  std::ifstream in(report_path);
  if (!in) return std::nullopt;
  nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
  if (!document.is_object()) return std::nullopt;
  AsyncifyNarrowingReport report;
  report.analysed = document.value("analysed", false);
  report.fallback_reason = document.value("fallback_reason", "");
  report.asyncify_needed = document.value("asyncify_needed", true);
  report.defined_functions = document.value("defined_functions", 0u);
  report.can_switch = document.value("can_switch", 0u);
  report.start_switch = document.value("start_switch", 0u);
  report.listed_non_switching = document.value("listed_non_switching", 0u);
  report.left_to_binaryen = document.value("left_to_binaryen", 0u);
  report.can_switch_names = document.value("can_switch_names", std::vector<std::string>{});
  report.switch_imports_called = document.value("switch_imports_called", std::vector<std::string>{});
  report.seconds = document.value("seconds", 0.0);
  return report;
}

std::optional<StackCheckReport> read_stack_check_report(const std::string& report_path) {
  std::ifstream in(stack_check_report_path(report_path));
  if (!in) return std::nullopt;
  nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
  if (!document.is_object()) return std::nullopt;
  StackCheckReport report;
  report.instrumented = true;
  report.functions = document.value("functions", 0u);
  report.checks = document.value("checks", 0u);
  report.restores = document.value("restores", 0u);
  report.dropped_sections = document.value("dropped_sections", 0u);
  report.bytes_before = document.value("bytes_before", std::size_t{0});
  report.bytes_after = document.value("bytes_after", std::size_t{0});
  return report;
}

std::optional<std::string> emscripten_binaryen_root(const std::string& emcc) {
  if (const char* explicit_root = std::getenv("EM_BINARYEN_ROOT"); explicit_root && *explicit_root) return std::string(explicit_root);
  fs::path compiler(emcc);
  std::vector<std::string> candidates;
  if (compiler.has_parent_path()) candidates.push_back((compiler.parent_path() / "em-config").string());
  candidates.push_back("em-config");
  for (const auto& em_config : candidates) {
    ChildResult run = run_child_process({em_config, "BINARYEN_ROOT"}, true);
    if (!run.succeeded()) continue;
    std::string root = run.captured_stdout;
    while (!root.empty() && (root.back() == '\n' || root.back() == '\r' || root.back() == ' ')) root.pop_back();
    if (!root.empty() && fs::exists(fs::path(root) / "bin" / "wasm-opt")) return root;
  }
  return std::nullopt;
}

std::optional<std::string> current_executable() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error || self.empty()) return std::nullopt;
  return self.string();
}

}  // namespace llgo_wasm
