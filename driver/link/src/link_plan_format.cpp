// Prints LinkPlans (link_plan.hpp) as text (--dry-run) and as JSON (--json): what each step
// does, in the words the executor's progress and errors use.
#include "llgo_wasm/link_plan.hpp"

#include <sstream>

namespace llgo_wasm {
namespace {

std::string describe_expectations(const ModuleExpectations& e) {
  std::vector<std::string> parts;
  if (e.forbid_shared_memory) parts.push_back("no shared memory");
  if (e.require_shared_memory) parts.push_back("shared memory");
  if (e.forbid_thread_imports) parts.push_back("no pthread/thread-spawn/wasi-threads imports");
  if (e.forbid_asyncify_imports) parts.push_back("no asyncify.* imports");
  if (e.forbid_legacy_exceptions) parts.push_back("no legacy try/catch (exnref only)");
  if (e.forbid_stack_switching) parts.push_back("no stack-switching instructions");
  for (const auto& name : e.merged_import_modules) parts.push_back("no " + name + ".* imports (merged)");
  for (const auto& name : e.required_function_exports) parts.push_back("exports function " + name);
  for (const auto& name : e.required_memory_exports) parts.push_back("exports memory " + name);
  if (parts.empty()) return "readable wasm module";
  std::string joined;
  for (const auto& part : parts) joined += (joined.empty() ? "" : ", ") + part;
  return joined;
}

const char* step_kind_name(LinkStepKind kind) {
  switch (kind) {
    case LinkStepKind::link:
    case LinkStepKind::archive:
    case LinkStepKind::compile_source:
    case LinkStepKind::merge_modules:
    case LinkStepKind::optimise_module: return "run";
    case LinkStepKind::validate_module: return "validate";
    case LinkStepKind::publish_output:
    case LinkStepKind::publish_folder: return "publish";
    case LinkStepKind::analyse_asyncify: return "analyse";
    case LinkStepKind::prepare_binaryen_shim: return "prepare";
    case LinkStepKind::read_asyncify_report: return "report";
    case LinkStepKind::add_stack_check: return "stack-check";
    case LinkStepKind::write_source: return "write";
  }
  return "?";
}

}  // namespace

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") ==
                           std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted += "'\\''";
    else quoted += c;
  }
  return quoted + "'";
}

std::string format_link_plan_text(const LinkPlan& plan) {
  std::ostringstream out;
  out << "link plan: target " << (plan.target_name.empty() ? "?" : plan.target_name);
  if (!plan.variant.empty()) out << " (" << plan.variant << ")";
  out << ", " << to_string(plan.kind) << " -> " << plan.output_path << "\n";
  int number = 1;
  for (const auto& step : plan.steps) {
    out << "  " << number++ << ". " << step.name << ": ";
    switch (step.kind) {
      case LinkStepKind::link:
      case LinkStepKind::archive:
      case LinkStepKind::compile_source:
      case LinkStepKind::merge_modules:
      case LinkStepKind::optimise_module: {
        std::string line;
        for (const auto& setting : step.environment) line += shell_quote(setting) + " ";
        for (size_t i = 0; i <= step.command.size(); ++i) {
          if (step.arguments_file && i == step.arguments_insert_at) {
            line += " <arguments decided by asyncify-analysis, from " + *step.arguments_file + ">";
          }
          if (i < step.command.size()) line += (line.empty() ? "" : " ") + shell_quote(step.command[i]);
        }
        out << line;
        break;
      }
      case LinkStepKind::analyse_asyncify:
        out << step.inputs.front() << ": call graph -> which functions can reach a switch point (";
        for (size_t i = 0; i < step.narrowing->switch_imports.size(); ++i) {
          out << (i ? ", " : "") << step.narrowing->switch_imports[i];
        }
        out << ") -> wasm-opt arguments in " << step.outputs.front();
        break;
      case LinkStepKind::validate_module:
        out << step.inputs.front() << ": " << describe_expectations(step.expectations.value_or(ModuleExpectations{}));
        break;
      case LinkStepKind::publish_output:
        out << "rename " << step.inputs.front() << " -> " << step.outputs.front();
        break;
      case LinkStepKind::publish_folder:
        out << "move the files of " << step.inputs.front() << "/ beside " << step.outputs.front() << " (the .wasm first)";
        break;
      case LinkStepKind::prepare_binaryen_shim:
        out << "EM_BINARYEN_ROOT=" << step.outputs.front() << ": " << step.shim->binaryen_root
            << "'s tools, wasm-opt through this driver ("
            << (step.shim->narrow ? "call graph -> asyncify remove-list" : "")
            << (step.shim->narrow && step.shim->stack_check ? "; " : "")
            << (step.shim->stack_check ? "the stack-overflow check" : "") << ")";
        break;
      case LinkStepKind::read_asyncify_report:
        out << step.inputs.front();
        break;
      case LinkStepKind::add_stack_check:
        out << step.inputs.front() << ": check every write of __stack_pointer that can lower it against "
            << "__llgo_stack_guard (llgo_stack_overflow_trap below it) -> " << step.outputs.front();
        break;
      case LinkStepKind::write_source:
      {
        std::string definition = step.content.substr(step.content.find('\n') + 1);
        while (!definition.empty() && definition.back() == '\n') definition.pop_back();
        out << step.outputs.front() << ": " << definition;
        break;
      }
    }
    out << "\n";
  }
  if (!plan.temporaries.empty()) {
    out << "  temporaries (removed on success and on failure):";
    for (const auto& temp : plan.temporaries) out << " " << temp;
    out << "\n";
  }
  for (const auto& note : plan.notes) out << "  note: " << note << "\n";
  return out.str();
}

nlohmann::json link_plan_to_json(const LinkPlan& plan) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : plan.steps) {
    nlohmann::json entry = {{"name", step.name},
                            {"kind", step_kind_name(step.kind)},
                            {"inputs", step.inputs},
                            {"outputs", step.outputs}};
    if (runs_tool(step.kind)) {
      entry["tool"] = step.command.front();
      entry["args"] = std::vector<std::string>(step.command.begin() + 1, step.command.end());
    }
    if (step.expectations) entry["checks"] = describe_expectations(*step.expectations);
    if (step.narrowing) entry["switch_imports"] = step.narrowing->switch_imports;
    if (step.arguments_file) {
      entry["arguments_file"] = *step.arguments_file;
      entry["arguments_insert_at"] = step.arguments_insert_at;  // index into [tool] + args
    }
    steps.push_back(entry);
  }
  return {{"target", plan.target_name}, {"variant", plan.variant}, {"kind", to_string(plan.kind)},
          {"output", plan.output_path}, {"steps", steps}, {"temporaries", plan.temporaries},
          {"notes", plan.notes}};
}

}  // namespace llgo_wasm
