// The real P1 pipeline: clang-19 + wasi-libc (setjmp) + pinned Binaryen + Node 24.  Builds
// fixtures/switch_and_longjmp.c (setjmp/longjmp plus raw Asyncify switches), links it through
// run_link_command, checks the final module and runs it.  These tests FAIL, never skip, when a
// tool is missing (label `toolchain`): run the project's toolchain setup, or set
// LLGO_WASM_TOOLCHAIN_DIR, WASMOPT, WASI_SYSROOT, NODE.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include <gtest/gtest.h>
#include <signal.h>

#include "link_test_support.hpp"
#include "llgo_wasm/child_process.hpp"
#include "llgo_wasm/link_command.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"
#include "llgo_wasm/wasm_opt_discovery.hpp"

using namespace llgo_wasm;
namespace fs = std::filesystem;

namespace {

struct RealToolchain {
  std::string clang;
  std::string sysroot;
  std::string triple;
  std::string node;
  std::string problems;  // empty when everything was found
};

std::optional<int> node_major_version(const std::string& node) {
  ChildResult run = run_child_process({node, "--version"}, true);
  if (!run.succeeded() || run.captured_stdout.size() < 2 || run.captured_stdout[0] != 'v') return std::nullopt;
  return std::atoi(run.captured_stdout.c_str() + 1);
}

RealToolchain find_real_toolchain() {
  RealToolchain found;
  EnvironmentLookup environment = process_environment();
  auto setup = project_toolchain_dir(environment);
  if (auto cc = environment("CC")) found.clang = *cc;
  else if (auto clang = find_on_path("clang-19", environment)) found.clang = *clang;
  else found.problems += "  no clang-19 on PATH (or CC)\n";

  std::vector<std::string> sysroots;
  if (auto value = environment("WASI_SYSROOT")) sysroots.push_back(*value);
  if (auto sdk = environment("WASI_SDK_PATH")) sysroots.push_back(*sdk + "/share/wasi-sysroot");
  if (setup) sysroots.push_back(*setup + "/wasi-sysroot");
  for (const auto& candidate : sysroots) {
    for (const char* triple : {"wasm32-wasi", "wasm32-wasip1"}) {  // clang-19's own compiler-rt is under lib/wasi
      if (found.sysroot.empty() && fs::exists(fs::path(candidate) / "lib" / triple / "libsetjmp.a")) {
        found.sysroot = candidate;
        found.triple = triple;
      }
    }
  }
  if (found.sysroot.empty()) {
    found.problems += "  no wasi-libc sysroot with libsetjmp.a (tried WASI_SYSROOT, WASI_SDK_PATH, setup folder):";
    for (const auto& candidate : sysroots) found.problems += " " + candidate;
    found.problems += "\n";
  }
  try {
    discover_wasm_opt(environment);
  } catch (const WasmOptDiscoveryError& error) {
    found.problems += std::string("  ") + error.what() + "\n";
  }
  std::vector<std::string> nodes;
  if (auto value = environment("NODE")) nodes.push_back(*value);
  if (setup) nodes.push_back(*setup + "/bin/node");
  if (auto on_path = find_on_path("node", environment)) nodes.push_back(*on_path);
  for (const auto& candidate : nodes) {
    auto major = node_major_version(candidate);
    if (found.node.empty() && major && *major >= 24) found.node = candidate;
  }
  if (found.node.empty()) found.problems += "  no Node >= 24 (tried NODE, setup folder bin/node, PATH); exnref needs it\n";
  return found;
}

ResolvedTarget resolved_p1() { return link_test::resolve_target_named("wasip1"); }

class RealPipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    tools = find_real_toolchain();
    ASSERT_TRUE(tools.problems.empty()) << "the P1 toolchain is incomplete (these tests never skip):\n" << tools.problems
                                        << "fix: run the project's toolchain setup, or set LLGO_WASM_TOOLCHAIN_DIR / WASMOPT / WASI_SYSROOT / NODE";
    scratch = link_test::make_scratch_directory("real");
    object = scratch / "switch_and_longjmp.o";
    ChildResult compile = run_child_process({tools.clang, "--target=" + tools.triple, "--sysroot=" + tools.sysroot, "-O2",
                                             "-mllvm", "-wasm-enable-sjlj", "-c",
                                             std::string(LLGO_WASM_LINK_TEST_FIXTURES_DIR) + "/switch_and_longjmp.c",
                                             "-o", object.string()});
    ASSERT_TRUE(compile.succeeded()) << compile.describe_failure("clang");
  }
  void TearDown() override {
    if (!scratch.empty()) fs::remove_all(scratch);
  }

  int link(const fs::path& output, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--cc", tools.clang, "--sysroot", tools.sysroot, "-O2", object.string(), "-o", output.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_link_command(resolved_p1(), args);
  }

  ChildResult run_under_node(const fs::path& module, std::vector<std::string> program_args = {}) {
    std::vector<std::string> command = {tools.node, "--no-warnings",
                                        std::string(LLGO_WASM_LINK_TEST_FIXTURES_DIR) + "/run_wasi_node.mjs", module.string()};
    command.insert(command.end(), program_args.begin(), program_args.end());
    return run_child_process(command, true);
  }

  RealToolchain tools;
  fs::path scratch;
  fs::path object;
};

}  // namespace

TEST_F(RealPipeline, SetjmpAndSwitchesSurviveAsyncifyAndExnrefAndRunUnderNode) {
  const fs::path output = scratch / "app.wasm";
  ASSERT_EQ(link(output, {"-v"}), 0);
  WasmModuleSummary module = read_wasm_module_file(output.string());
  EXPECT_TRUE(module.legacy_eh_sites.empty());
  EXPECT_GT(module.try_table_count, 0u) << "setjmp/longjmp should have become try_table (exnref)";
  for (const auto& import : module.imports) EXPECT_NE(import.module, "asyncify") << import.name;
  EXPECT_TRUE(link_test::temporaries_in(scratch).empty());

  ChildResult run = run_under_node(output);
  EXPECT_TRUE(run.exited && run.exit_status == 0) << run.describe_failure("node") << "\n" << run.captured_stdout;
  EXPECT_EQ(run.captured_stdout, "result=38 rounds=3 resumes=4 ok\n");
  ChildResult with_status = run_under_node(output, {"7"});
  EXPECT_TRUE(with_status.exited && with_status.exit_status == 7) << with_status.describe_failure("node");

  if (auto wasmtime = find_on_path("wasmtime", process_environment())) {
    ChildResult engine = run_child_process({*wasmtime, "run", "-W", "exceptions=y", output.string()}, true);
    EXPECT_TRUE(engine.exited && engine.exit_status == 0) << engine.describe_failure("wasmtime");
    EXPECT_EQ(engine.captured_stdout, "result=38 rounds=3 resumes=4 ok\n");
  }
}

TEST_F(RealPipeline, RealWasmOptKilledBySigkillLeavesThePreviousOutput) {
  const fs::path output = scratch / "app.wasm";
  const std::vector<uint8_t> previous = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
  link_test::write_file(output, previous);
  std::atomic<bool> killed{false};
  std::thread killer([&] {
    for (int i = 0; i < 600 && !killed; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      int child = current_child_process_id();
      if (child <= 0) continue;
      std::ifstream cmdline("/proc/" + std::to_string(child) + "/cmdline");
      std::string words((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
      if (words.find("--translate-to-exnref") == std::string::npos) continue;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));  // mid-run
      kill(child, SIGKILL);
      killed = true;
    }
  });
  testing::internal::CaptureStderr();
  int status = link(output);
  std::string diagnostics = testing::internal::GetCapturedStderr();
  killed = true;
  killer.join();
  EXPECT_EQ(status, 1) << diagnostics;
  EXPECT_NE(diagnostics.find("killed by SIGKILL"), std::string::npos) << diagnostics;
  EXPECT_EQ(link_test::read_file(output), previous);
  EXPECT_TRUE(link_test::temporaries_in(scratch).empty());
}

// Prints the size/time figures with and without Asyncify narrowing (used by bench/).
TEST_F(RealPipeline, NarrowingFigures) {
  struct Figure { std::string label; uintmax_t size; double seconds; };
  std::vector<Figure> figures;
  for (bool narrowed : {true, false}) {
    const fs::path output = scratch / (narrowed ? "narrow.wasm" : "wide.wasm");
    std::vector<std::string> extra;
    if (!narrowed) extra.push_back("--no-asyncify-narrowing");
    auto started = std::chrono::steady_clock::now();
    ASSERT_EQ(link(output, extra), 0);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    figures.push_back({narrowed ? "narrowed (asyncify-imports)" : "not narrowed (all imports may switch)",
                       fs::file_size(output), seconds});
    ChildResult run = run_under_node(output);
    EXPECT_TRUE(run.exited && run.exit_status == 0) << run.captured_stdout;
  }
  for (const auto& figure : figures) {
    std::printf("asyncify %-40s final module %8ju B, link %.2f s\n", figure.label.c_str(), figure.size, figure.seconds);
  }
  EXPECT_LT(figures[0].size, figures[1].size) << "narrowing should instrument less code";
}

// cmake/LlgoWasmLink.cmake: a CMake build (Release, so -O3 reaches the link line) leaves the
// final module at the target's normal path, and it runs.
TEST_F(RealPipeline, CMakeProjectLinksThroughTheDriver) {
  const fs::path build = scratch / "cmake-build";
  ChildResult configure = run_child_process(
      {LLGO_WASM_LINK_TEST_CMAKE, "-S", std::string(LLGO_WASM_LINK_TEST_SOURCE_DIR) + "/tests/link/cmake_project",
       "-B", build.string(), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_SYSTEM_NAME=Generic",
       "-DCMAKE_C_COMPILER=" + tools.clang, "-DCMAKE_C_COMPILER_TARGET=" + tools.triple, "-DCMAKE_SYSROOT=" + tools.sysroot,
       "-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY", "-DLLGO_WASM_SOURCE_DIR=" + std::string(LLGO_WASM_LINK_TEST_SOURCE_DIR),
       "-DLLGO_WASM_DRIVER=" + std::string(LLGO_WASM_LINK_TEST_CLI)},
      true);
  ASSERT_TRUE(configure.succeeded()) << configure.describe_failure("cmake (configure)") << "\n" << configure.captured_stdout;
  ChildResult build_run = run_child_process({LLGO_WASM_LINK_TEST_CMAKE, "--build", build.string(), "-v"}, true);
  ASSERT_TRUE(build_run.succeeded()) << build_run.describe_failure("cmake --build") << "\n" << build_run.captured_stdout;
  EXPECT_NE(build_run.captured_stdout.find(" link --target wasip1 "), std::string::npos) << build_run.captured_stdout;

  const fs::path output = build / "switch_and_longjmp.wasm";
  WasmModuleSummary module = read_wasm_module_file(output.string());
  EXPECT_TRUE(module.legacy_eh_sites.empty());
  EXPECT_GT(module.try_table_count, 0u);
  EXPECT_TRUE(link_test::temporaries_in(build).empty());
  ChildResult run = run_under_node(output);
  EXPECT_TRUE(run.exited && run.exit_status == 0) << run.describe_failure("node") << "\n" << run.captured_stdout;
  EXPECT_EQ(run.captured_stdout, "result=38 rounds=3 resumes=4 ok\n");
}
