// libFuzzer target: an argument list (one argument per line) -> parse_link_arguments ->
// build_link_plan for each kind of resolved target -> the plan as text and as JSON. A
// LinkUsageError is a correct answer. Nothing is run.
#include <cstdint>
#include <string>
#include <vector>

#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/link_plan.hpp"

namespace {

const std::vector<nlohmann::json>& resolved_targets() {
  static const std::vector<nlohmann::json> targets = {
      {{"name", "wasip1"}, {"variant", "P1"}, {"goos", "wasip1"}, {"goarch", "wasm"}, {"triple", "wasm32-unknown-wasip1"},
       {"capabilities", {{"asyncify", "post-link"}, {"threads", false}}}, {"ldflags", {"-lsetjmp", "-mllvm -wasm-enable-sjlj"}}},
      {{"name", "wasip1-threads"}, {"variant", "P1T"}, {"goos", "wasip1"}, {"goarch", "wasm"},
       {"triple", "wasm32-wasip1-threads"}, {"capabilities", {{"asyncify", "none"}, {"threads", true}}},
       {"ldflags", {"-pthread", "-Wl,--shared-memory"}}},
      {{"name", "wasm"}, {"variant", "J32"}, {"goos", "js"}, {"goarch", "wasm"}, {"triple", "wasm32-unknown-emscripten"},
       {"capabilities", {{"asyncify", "emscripten"}}}, {"ldflags", {"-sASYNCIFY=1", " -O2  "}}},
      {{"name", "host"}, {"variant", "native"}, {"goos", "linux"}, {"goarch", "amd64"}},
      nlohmann::json::object(),
  };
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
  LinkToolchain toolchain{"clang", "llvm-ar", "wasm-opt", std::nullopt};
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
