// libFuzzer target: an argument list (one argument per line) -> parse_link_arguments ->
// build_link_plan for each kind of resolved target -> the plan as text and as JSON. A
// LinkUsageError is a correct answer. Nothing is run.
#include <cstdint>
#include <string>
#include <vector>

#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/link_plan.hpp"
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/resolve.hpp"

namespace {

// Every built-in target, each with descriptor ldflags that carry spaces and an -O flag.
const std::vector<llgo_wasm::ResolvedTarget>& resolved_targets() {
  static const std::vector<llgo_wasm::ResolvedTarget> targets = [] {
    std::vector<llgo_wasm::ResolvedTarget> list;
    for (const auto& name : llgo_wasm::builtin_descriptors().names()) {
      llgo_wasm::Query query;
      query.target = name;
      llgo_wasm::ResolvedTarget target = llgo_wasm::resolve_target(llgo_wasm::builtin_descriptors(), query);
      llgo_wasm::TargetSpec spec = target.spec;
      spec.ldflags.insert(spec.ldflags.end(), {"-mllvm -wasm-enable-sjlj", " -O2  ", "-Wl,{root}/x"});
      list.push_back(target);
      list.push_back({spec, target.goos_origin, target.goarch_origin, target.environment,
                      target.overridden_environment, target.descriptor_files});
    }
    return list;
  }();
  return targets;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace llgo_wasm;
  std::vector<std::string> args;
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);
  LinkArguments arguments;
  try {
    arguments = parse_link_arguments(args);
  } catch (const LinkUsageError&) {
    return 0;
  }
  if (arguments.help || arguments.print_wasm_opt) return 0;
  LinkToolchain toolchain{"clang", "llvm-ar", "wasm-opt", std::nullopt, std::string("/root")};
  for (const auto& target : resolved_targets()) {
    LinkPlan plan = build_link_plan(target, arguments, toolchain, TemporaryNaming{4242, "abc123"});
    (void)format_link_plan_text(plan);
    try {
      (void)link_plan_to_json(plan).dump();
    } catch (const nlohmann::json::type_error& error) {
      if (error.id != 316) throw;  // not UTF-8: the CLI refuses to print it (driver/cli/main.cpp)
    }
  }
  return 0;
}
