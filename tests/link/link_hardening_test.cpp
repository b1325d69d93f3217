// Link-side hardening: which compiler a plan uses ($CC is the host's), descriptor flags that
// carry their argument, LEB128 numbers read exactly as the core spec and engines read them,
// and a stale-temporary sweep that touches only its own output's temporaries.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "link_test_support.hpp"
#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/link_command.hpp"
#include "llgo_wasm/link_executor.hpp"
#include "llgo_wasm/link_plan.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"

using namespace llgo_wasm;
namespace fs = std::filesystem;

namespace {

// A built-in target, its ldflags replaced when `ldflags` is given.
ResolvedTarget resolved(const std::string& name, std::optional<std::vector<std::string>> ldflags = std::nullopt) {
  ResolvedTarget target = link_test::resolve_target_named(name);
  if (!ldflags) return target;
  TargetSpec spec = target.spec;
  spec.ldflags = *ldflags;
  return ResolvedTarget{spec, target.goos_origin, target.goarch_origin, target.environment,
                        target.overridden_environment, target.descriptor_files};
}

// The tool of the plan's first step, as `link --dry-run --json` prints it, with CC set.
std::string planned_compiler(const ResolvedTarget& target, const char* cc, std::vector<std::string> extra = {}) {
  if (cc) setenv("CC", cc, 1);
  else unsetenv("CC");
  std::vector<std::string> args = {"--dry-run", "--json", "-o", "app", "main.o"};
  args.insert(args.end(), extra.begin(), extra.end());
  setenv("LLGO_WASM_ROOT", "/llgo-wasm-checkout", 1);  // {root} in J32's flags; a dry run reads nothing there
  testing::internal::CaptureStdout();
  int status = run_link_command(target, args);
  std::string output = testing::internal::GetCapturedStdout();
  unsetenv("LLGO_WASM_ROOT");
  unsetenv("CC");
  EXPECT_EQ(status, 0) << output;
  // The link step: under Emscripten with emcc's Binaryen found (emcc on PATH), a binaryen-shim
  // step comes first.
  const nlohmann::json plan = nlohmann::json::parse(output);
  for (const auto& step : plan["steps"]) {
    if (step["name"] == "link") return step["tool"].get<std::string>();
  }
  ADD_FAILURE() << "no link step in " << output;
  return "";
}

}  // namespace

TEST(LinkHardening, CcNamesTheHostCompilerOnly) {
  // A fake wasm-opt answers the P1 plans' version probe at once (the real one starts Node).
  fs::path tools = link_test::make_scratch_directory("cc");
  link_test::write_fake_tools(tools);
  setenv("WASMOPT", (tools / "fake-wasm-opt").c_str(), 1);
  // The reproduction: CC=gcc planned `gcc --target=wasm32-wasi ...` for wasip1.
  auto p1 = resolved("wasip1");
  EXPECT_NE(planned_compiler(p1, "gcc"), "gcc");
  EXPECT_EQ(planned_compiler(p1, "gcc"), planned_compiler(p1, nullptr));
  EXPECT_EQ(planned_compiler(resolved("wasm"), "gcc"), "emcc");
  // Native targets: $CC is the host compiler, as everywhere else.
  auto native = resolved("host");
  EXPECT_EQ(planned_compiler(native, "gcc"), "gcc");
  EXPECT_EQ(planned_compiler(native, nullptr), "cc");
  // --cc is explicit, so it wins for every target.
  EXPECT_EQ(planned_compiler(p1, "gcc", {"--cc", "/opt/clang-19"}), "/opt/clang-19");
  unsetenv("WASMOPT");
  fs::remove_all(tools);
}

TEST(LinkHardening, DescriptorFlagsWithAnArgumentBecomeTwoWords) {
  auto target = resolved("wasip1", std::vector<std::string>{"-mllvm -wasm-enable-sjlj", "-Wl,--stack-first", "-O2"});
  LinkToolchain toolchain;
  toolchain.compiler = "/opt/clang";
  toolchain.archiver = "/opt/llvm-ar";
  toolchain.wasm_opt = "/opt/wasm-opt";
  LinkPlan plan = build_link_plan(target, parse_link_arguments({"-o", "app.wasm", "main.o"}), toolchain, {4242, "abc123"});
  const auto& command = plan.steps[0].command;
  auto mllvm = std::find(command.begin(), command.end(), "-mllvm");
  ASSERT_NE(mllvm, command.end()) << "\"-mllvm -wasm-enable-sjlj\" reached clang as one argument";
  EXPECT_EQ(*std::next(mllvm), "-wasm-enable-sjlj");
  EXPECT_EQ(std::count(command.begin(), command.end(), "-mllvm -wasm-enable-sjlj"), 0);
  EXPECT_EQ(std::count(command.begin(), command.end(), "-Wl,--stack-first"), 1);
  EXPECT_EQ(std::count(command.begin(), command.end(), "-O2"), 0) << "a descriptor -O must not reach the clang link line";
}

namespace {

// A module of one function () -> () whose body is `instructions` then `end`.
std::vector<uint8_t> module_with_body(const std::vector<uint8_t>& instructions) {
  std::vector<uint8_t> module = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
  link_test::append_section(module, 1, {0x01, 0x60, 0x00, 0x00});
  link_test::append_section(module, 3, {0x01, 0x00});
  std::vector<uint8_t> body = {0x00};
  body.insert(body.end(), instructions.begin(), instructions.end());
  body.push_back(0x0b);
  std::vector<uint8_t> code = {0x01};
  link_test::append_leb(code, body.size());
  code.insert(code.end(), body.begin(), body.end());
  link_test::append_section(module, 10, code);
  return module;
}

// A module whose type section's size is written with exactly these LEB128 bytes (value 4).
std::vector<uint8_t> module_with_section_size(const std::vector<uint8_t>& size_bytes) {
  std::vector<uint8_t> module = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01};
  module.insert(module.end(), size_bytes.begin(), size_bytes.end());
  module.insert(module.end(), {0x01, 0x60, 0x00, 0x00});
  return module;
}

std::string decode_error(const std::vector<uint8_t>& module) {
  try {
    read_wasm_module(module);
    return "";
  } catch (const WasmDecodeError& error) {
    return error.what();
  }
}

}  // namespace

// Each case was also checked against Node 24's WebAssembly.validate and wabt's wasm-validate,
// which agree with the spec (docs/reliability.md).
TEST(LinkHardening, Leb128FollowsTheSpec) {
  // u32: at most 5 bytes; padding inside those 5 is allowed.
  EXPECT_EQ(decode_error(module_with_section_size({0x84, 0x80, 0x80, 0x80, 0x00})), "");
  EXPECT_NE(decode_error(module_with_section_size({0x84, 0x80, 0x80, 0x80, 0x80, 0x00})).find("too long (u32)"),
            std::string::npos);
  // 4 + 2^32 used to be truncated to 4 and accepted.
  EXPECT_NE(decode_error(module_with_section_size({0x84, 0x80, 0x80, 0x80, 0x10})).find("integer too large (u32)"),
            std::string::npos);
  // s32: the unused bits of the 5th byte must copy the sign.
  EXPECT_EQ(decode_error(module_with_body({0x41, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x1a})), "");  // i32.const -1
  EXPECT_EQ(decode_error(module_with_body({0x41, 0x80, 0x80, 0x80, 0x80, 0x78, 0x1a})), "");  // i32.const INT32_MIN
  EXPECT_NE(decode_error(module_with_body({0x41, 0xff, 0xff, 0xff, 0xff, 0x4f, 0x1a})).find("integer too large (s32)"),
            std::string::npos);
  EXPECT_NE(decode_error(module_with_body({0x41, 0x80, 0x80, 0x80, 0x80, 0x08, 0x1a})).find("integer too large (s32)"),
            std::string::npos);
  EXPECT_NE(decode_error(module_with_body({0x41, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x1a})).find("too long (s32)"),
            std::string::npos);
  // s64: 10 bytes, the last one 0x00 or 0x7f.
  std::vector<uint8_t> i64_min = {0x42, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f, 0x1a};
  EXPECT_EQ(decode_error(module_with_body(i64_min)), "");
  std::vector<uint8_t> i64_bad = {0x42, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x1a};
  EXPECT_NE(decode_error(module_with_body(i64_bad)).find("integer too large (s64)"), std::string::npos);
}

// A code section's body count is checked against its bytes before anything is sized by it
// (fuzz_wasm_module found a 6 GB allocation for a count of 2^32 - 1 in a few bytes).
TEST(LinkHardening, CodeSectionCountIsBoundedByItsBytes) {
  std::vector<uint8_t> module = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
  link_test::append_section(module, 10, {0xff, 0xff, 0xff, 0xff, 0x0f, 0x00});
  EXPECT_NE(decode_error(module).find("declares 4294967295 function bodies in 1 bytes"), std::string::npos)
      << decode_error(module);
}

TEST(LinkHardening, SweepLeavesOtherOutputsTemporaries) {
  fs::path directory = link_test::make_scratch_directory("sweep");
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  const std::string pid = std::to_string(dead);
  // Output `app`'s own stale temporary, and those of outputs `app.wasm` and `app.b` (the
  // prefix ".app." matches all three names).
  const fs::path own = directory / (".app.link." + pid + ".a1b2c3.tmp");
  // A role may have a dash (the Asyncify list and arguments files of a narrowed link).
  const fs::path own_list = directory / (".app.asyncify-list." + pid + ".a1b2c3.tmp");
  const fs::path of_app_wasm = directory / (".app.wasm.core." + pid + ".a1b2c3.tmp");
  const fs::path of_app_b = directory / (".app.b.final." + pid + ".d4e5f6.tmp");
  for (const auto& path : {own, own_list, of_app_wasm, of_app_b}) {
    link_test::write_text(path, "partial");
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::minutes(5));
  }
  auto removed = sweep_stale_temporaries((directory / "app").string(), std::chrono::system_clock::now());
  std::sort(removed.begin(), removed.end());
  EXPECT_EQ(removed, (std::vector<std::string>{own_list.string(), own.string()}));  // sorted
  EXPECT_TRUE(fs::exists(of_app_wasm)) << "a temporary of output app.wasm was swept by a link of app";
  EXPECT_TRUE(fs::exists(of_app_b)) << "a temporary of output app.b was swept by a link of app";
  fs::remove_all(directory);
}

// The executor reports a wasm-opt step's size change by the step's kind, whatever its name.
TEST(LinkHardening, ExecutorRecognisesTheOptimiseStepByItsKind) {
  const fs::path scratch = link_test::make_scratch_directory("kind");
  link_test::write_text(scratch / "in.wasm", "0123456789");
  const std::string copied = (scratch / ".out.wasm.final.1.x.tmp").string();
  LinkPlan plan;
  plan.output_path = (scratch / "out.wasm").string();
  plan.temporaries = {copied};
  LinkStep optimise;
  optimise.kind = LinkStepKind::optimise_module;
  optimise.name = "shrink";  // no "wasm-opt" or "asyncify" in its name
  optimise.command = {"/bin/cp", (scratch / "in.wasm").string(), copied};
  optimise.inputs = {(scratch / "in.wasm").string()};
  optimise.outputs = {copied};
  LinkStep publish;
  publish.kind = LinkStepKind::publish_output;
  publish.name = "publish";
  publish.inputs = {copied};
  publish.outputs = {plan.output_path};
  plan.steps = {optimise, publish};
  std::ostringstream diagnostics;
  LinkExecutionResult result = execute_link_plan(plan, LinkExecutionOptions{}, diagnostics);
  ASSERT_TRUE(result.succeeded) << result.error;
  ASSERT_EQ(result.steps.size(), 2u);
  EXPECT_EQ(result.steps[0].detail, "10 B -> 10 B (+0.0%)");
  EXPECT_TRUE(fs::exists(plan.output_path));
  fs::remove_all(scratch);
}
