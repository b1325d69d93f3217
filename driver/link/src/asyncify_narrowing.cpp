// Binaryen arguments from the call-graph analysis (see asyncify_narrowing.hpp).
#include "llgo_wasm/asyncify_narrowing.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <unordered_set>

#include "llgo_wasm/asyncify_analysis.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {
namespace {

}  // namespace

void write_list_file(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::trunc);
  for (const auto& line : lines) out << line << "\n";
  out.flush();
  if (!out) {
    const int error = errno;
    throw std::runtime_error("cannot write " + path + (error ? std::string(": ") + std::strerror(error) : std::string()));
  }
}

AsyncifyNarrowingReport report_of(const AsyncifyAnalysis& analysis) {
  AsyncifyNarrowingReport report;
  report.analysed = true;
  report.asyncify_needed = !analysis.instruments_nothing();
  report.defined_functions = analysis.defined_functions;
  report.can_switch = static_cast<unsigned>(analysis.can_switch.size());
  report.start_switch = static_cast<unsigned>(analysis.start_switch.size());
  report.can_switch_names = analysis.can_switch_names();
  report.switch_imports_called = analysis.switch_imports_called;
  report.listed_non_switching = static_cast<unsigned>(analysis.removable_names().size());
  report.left_to_binaryen = analysis.unnamed_non_switching();
  return report;
}

std::string asyncify_imports_argument(const std::vector<std::string>& switch_imports) {
  std::string list;
  for (const auto& name : switch_imports) list += (list.empty() ? "" : ",") + name;
  return "--pass-arg=asyncify-imports@" + list;
}

std::string asyncify_removelist_argument(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ",") + name;
  return "--pass-arg=asyncify-removelist@" + list;
}

bool keeps_binaryen_line(std::string_view line) {
  return line.find("list contained a non-existing function name") == std::string_view::npos;
}

std::string AsyncifyNarrowingReport::summary() const {
  char line[512];
  if (!analysed) {
    std::snprintf(line, sizeof line, "not narrowed (%s): Binaryen's own analysis decides", fallback_reason.c_str());
  } else if (!asyncify_needed) {
    std::snprintf(line, sizeof line, "0 of %u functions can reach a switch point: no Asyncify pass", defined_functions);
  } else {
    std::snprintf(line, sizeof line,
                  "%u of %u functions can reach a switch point (%u instrumented, %u start the switch); "
                  "%u listed as non-switching, %u left to Binaryen (no safe name); analysis %.3f s",
                  can_switch, defined_functions, can_switch - start_switch, start_switch, listed_non_switching,
                  left_to_binaryen, seconds);
    std::string text = line;
    if (!switch_imports_called.empty()) {
      text += "; switch points called:";
      for (const auto& name : switch_imports_called) text += " " + name;
    }
    return text;
  }
  return line;
}

AsyncifyNarrowingReport plan_asyncify_arguments(const std::string& module_path, const AsyncifyNarrowingRequest& request,
                                                const std::string& list_path, std::vector<std::string>& arguments) {
  const auto started = std::chrono::steady_clock::now();
  AsyncifyNarrowingReport report;
  arguments = {"--asyncify", asyncify_imports_argument(request.switch_imports)};
  try {
    WasmModuleSummary module = read_wasm_module_file(module_path);
    AsyncifyAnalysis analysis =
        analyse_asyncify(module, {request.switch_imports, request.table_call_imports, request.never_switch});
    report = report_of(analysis);
    if (!report.asyncify_needed) {
      arguments.clear();
    } else {
      // The declared names first (patterns a name check cannot vouch for), then the analysis's.
      // A declared name the module does not define is left out: Binaryen would warn about it
      // (the runtime's host-side functions are absent from a program without goroutines).
      std::vector<std::string> listed;
      const std::unordered_set<std::string> defined(analysis.binaryen_names.begin(), analysis.binaryen_names.end());
      for (const auto& name : request.never_switch) {
        if (name.find('*') != std::string::npos || defined.count(name) != 0) listed.push_back(name);
      }
      for (auto& name : analysis.removable_names()) {
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) listed.push_back(std::move(name));
      }
      if (!listed.empty()) {
        write_list_file(list_path, listed);
        arguments.push_back("--pass-arg=asyncify-removelist@@" + list_path);
      }
    }
  } catch (const WasmDecodeError& error) {
    report.fallback_reason = std::string("cannot read the module: ") + error.what();
  } catch (const AsyncifyAnalysisError& error) {
    report.fallback_reason = error.what();
  }
  if (!report.analysed && !request.never_switch.empty()) {
    arguments.push_back(asyncify_removelist_argument(request.never_switch));  // Binaryen decides the rest
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

AsyncifyNarrowingReport write_asyncify_arguments(const std::string& module_path, const AsyncifyNarrowingRequest& request,
                                                 const std::string& arguments_path, const std::string& list_path) {
  std::vector<std::string> arguments;
  AsyncifyNarrowingReport report = plan_asyncify_arguments(module_path, request, list_path, arguments);
  write_list_file(arguments_path, arguments);
  return report;
}

}  // namespace llgo_wasm
