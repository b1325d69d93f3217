// The real P1 pipeline: clang-19 + wasi-libc (setjmp) + pinned Binaryen + Node 24.  Builds
// fixtures/switch_and_longjmp.c (setjmp/longjmp plus raw Asyncify switches), links it through
// run_link_command, checks the final module and runs it.  These tests FAIL, never skip, when a
// tool is missing (label `toolchain`): run the project's toolchain setup, or set
// LLGO_WASM_TOOLCHAIN_DIR, WASMOPT, WASI_SYSROOT, NODE.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <signal.h>

#include "link_test_support.hpp"
#include "llgo_wasm/asyncify_narrowing.hpp"
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

  fs::path compile(const std::string& fixture) {
    const fs::path compiled = scratch / (fixture + ".o");
    ChildResult run = run_child_process({tools.clang, "--target=" + tools.triple, "--sysroot=" + tools.sysroot, "-O2",
                                         "-c", std::string(LLGO_WASM_LINK_TEST_FIXTURES_DIR) + "/" + fixture, "-o",
                                         compiled.string()});
    EXPECT_TRUE(run.succeeded()) << run.describe_failure("clang");
    return compiled;
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
    // Killed as soon as it is seen running (a wait before the kill would let a fast machine
    // finish the step first); the npm Binaryen is a Node program, so it runs long enough to be
    // seen at a 5 ms poll. The 30 s only stops a hang.
    for (int i = 0; i < 6000 && !killed; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      int child = current_child_process_id();
      if (child <= 0) continue;
      std::ifstream cmdline("/proc/" + std::to_string(child) + "/cmdline");
      std::string words((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
      if (words.find("--translate-to-exnref") == std::string::npos) continue;
      kill(child, SIGKILL);
      killed = true;
    }
  });
  testing::internal::CaptureStderr();
  // Whatever link() does, the killer is joined and stderr given back before anything is reported:
  // an exception leaving the test body with the thread joinable would abort the process, and with
  // stderr still captured its message would be lost (one CI run of 2026-12-05 saw this case end
  // "Subprocess aborted" with no output).
  int status = -1;
  std::string thrown;
  try {
    status = link(output);
  } catch (const std::exception& error) {
    thrown = error.what();
  } catch (...) {
    thrown = "an exception that is not a std::exception";
  }
  std::string diagnostics = testing::internal::GetCapturedStderr();
  killed = true;
  killer.join();
  EXPECT_TRUE(thrown.empty()) << "run_link_command threw: " << thrown << "\n" << diagnostics;
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
    figures.push_back({narrowed ? "narrowed (call graph)" : "not narrowed (all imports may switch)",
                       fs::file_size(output), seconds});
    ChildResult run = run_under_node(output);
    EXPECT_TRUE(run.exited && run.exit_status == 0) << run.captured_stdout;
  }
  for (const auto& figure : figures) {
    std::printf("asyncify %-40s final module %8ju B, link %.2f s\n", figure.label.c_str(), figure.size, figure.seconds);
  }
  EXPECT_LT(figures[0].size, figures[1].size) << "narrowing should instrument less code";
}

// The descriptors' remove-lists name runtime functions (llgo_fatal, the raw backend's host loop)
// that a plain C program does not define. Binaryen warns once per such name; the driver drops
// those lines and passes everything else on, in both Asyncify modes.
TEST_F(RealPipeline, AbsentListedNamesDrawNoBinaryenWarning) {
  const fs::path object = compile("switch_through_pointer.c");
  for (const char* mode : {"wide", "narrowed"}) {
    const fs::path output = scratch / (std::string("absent-") + mode + ".wasm");
    testing::internal::CaptureStderr();
    int status = run_link_command(resolved_p1(), {"--cc", tools.clang, "--sysroot", tools.sysroot, "-O2", "--asyncify",
                                                  mode, object.string(), "-o", output.string()});
    std::string diagnostics = testing::internal::GetCapturedStderr();
    ASSERT_EQ(status, 0) << mode << ": " << diagnostics;
    EXPECT_EQ(diagnostics.find("non-existing function name"), std::string::npos) << mode << ":\n" << diagnostics;
    EXPECT_EQ(diagnostics.find("warning"), std::string::npos) << mode << ":\n" << diagnostics;
    ChildResult run = run_under_node(output);
    EXPECT_TRUE(run.exited && run.exit_status == 0) << mode << ": " << run.describe_failure("node");
  }
  EXPECT_TRUE(link_test::temporaries_in(scratch).empty()) << "the diagnostics file is a temporary";
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

// The build's optimisation level reaches the driver's wasm-opt step in every CMake
// configuration, through the real toolchain file (cmake/toolchains/wasip1.cmake) as an outside
// project uses it.  A logging stand-in for wasm-opt (WASMOPT) records each command line and
// runs the real one.  Debug is -O0 (no level); no level anywhere is the descriptor's default.
TEST_F(RealPipeline, EveryCMakeConfigurationReachesWasmOpt) {
  const std::string real_wasm_opt = discover_wasm_opt(process_environment()).path;
  const fs::path log = scratch / "wasm-opt.log";
  const fs::path logging_wasm_opt = scratch / "logging-wasm-opt";
  link_test::write_text(logging_wasm_opt,
                        "#!/bin/sh\n[ \"$1\" = --version ] || echo \"$*\" >> '" + log.string() + "'\nexec '" +
                            real_wasm_opt + "' \"$@\"\n",
                        true);
  const char* previous = std::getenv("WASMOPT");
  const std::string previous_value = previous ? previous : "";
  setenv("WASMOPT", logging_wasm_opt.c_str(), 1);

  // The -O word on each logged wasm-opt line ("" when there is none).
  auto levels_in_log = [&] {
    std::vector<std::string> levels;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
      std::string found;
      std::istringstream words(line);
      for (std::string word; words >> word;) {
        if (word.size() <= 3 && word.rfind("-O", 0) == 0) found = word;
      }
      levels.push_back(found);
    }
    fs::remove(log);
    return levels;
  };
  auto configure = [&](const fs::path& build, std::vector<std::string> extra) {
    std::vector<std::string> command = {
        LLGO_WASM_LINK_TEST_CMAKE, "-S", std::string(LLGO_WASM_LINK_TEST_SOURCE_DIR) + "/tests/link/cmake_levels_project",
        "-B", build.string(), "-DCMAKE_TOOLCHAIN_FILE=" + std::string(LLGO_WASM_LINK_TEST_SOURCE_DIR) + "/cmake/toolchains/wasip1.cmake",
        "-DLLGO_WASM_SOURCE_DIR=" + std::string(LLGO_WASM_LINK_TEST_SOURCE_DIR),
        "-DLLGO_WASM_DRIVER=" + std::string(LLGO_WASM_LINK_TEST_CLI)};
    command.insert(command.end(), extra.begin(), extra.end());
    ChildResult run = run_child_process(command, true);
    EXPECT_TRUE(run.succeeded()) << run.describe_failure("cmake (configure)") << "\n" << run.captured_stdout;
    return run.succeeded();
  };
  auto build_and_read_level = [&](const fs::path& build, std::vector<std::string> extra) -> std::string {
    std::vector<std::string> command = {LLGO_WASM_LINK_TEST_CMAKE, "--build", build.string()};
    command.insert(command.end(), extra.begin(), extra.end());
    ChildResult run = run_child_process(command, true);
    EXPECT_TRUE(run.succeeded()) << run.describe_failure("cmake --build") << "\n" << run.captured_stdout;
    auto levels = levels_in_log();
    EXPECT_EQ(levels.size(), 1u) << "expected one wasm-opt run";
    return levels.empty() ? "(no run)" : levels.front();
  };

  // One multi-config build tree: the four standard configurations.
  const fs::path multi = scratch / "multi";
  if (configure(multi, {"-G", "Ninja Multi-Config", "-DCMAKE_CONFIGURATION_TYPES=Debug;Release;RelWithDebInfo;MinSizeRel"})) {
    const std::map<std::string, std::string> expected = {
        {"Debug", ""}, {"Release", "-O3"}, {"RelWithDebInfo", "-O2"}, {"MinSizeRel", "-Os"}};
    for (const auto& [configuration, level] : expected) {
      EXPECT_EQ(build_and_read_level(multi, {"--config", configuration}), level) << configuration;
    }
  }
  // CMAKE_C_FLAGS set by hand, no build type.
  const fs::path by_hand = scratch / "by-hand";
  if (configure(by_hand, {"-G", "Ninja", "-DCMAKE_C_FLAGS=-O1"})) EXPECT_EQ(build_and_read_level(by_hand, {}), "-O1");
  // No level anywhere: the descriptor's default.
  const fs::path none = scratch / "none";
  if (configure(none, {"-G", "Ninja"})) EXPECT_EQ(build_and_read_level(none, {}), "-O2");

  if (previous) setenv("WASMOPT", previous_value.c_str(), 1);
  else unsetenv("WASMOPT");
}

// The narrowing on a program whose only path to the switch point is an indirect call: the
// worker and the pointer's target are kept (and the yields really switch: the host loop counts
// them), a function that cannot switch is not listed, and Binaryen's own verbose account of
// what it instruments under our remove-list equals the analysis.
TEST_F(RealPipeline, NarrowingKeepsAFunctionReachedOnlyThroughAPointer) {
  const fs::path pointer_object = compile("switch_through_pointer.c");
  const fs::path output = scratch / "pointer.wasm";
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int status = run_link_command(resolved_p1(), {"--cc", tools.clang, "--sysroot", tools.sysroot, "-O2", "-v",
                                                "--print-asyncify-list", pointer_object.string(), "-o", output.string()});
  std::string listed = testing::internal::GetCapturedStdout();
  std::string diagnostics = testing::internal::GetCapturedStderr();
  ASSERT_EQ(status, 0) << diagnostics;
  std::set<std::string> names;
  std::istringstream lines(listed);
  for (std::string line; std::getline(lines, line);) names.insert(line);
  EXPECT_EQ(names, (std::set<std::string>{"switch_point", "step_and_yield", "worker"})) << listed;
  EXPECT_NE(diagnostics.find("3 of "), std::string::npos) << "-v prints the count:\n" << diagnostics;

  ChildResult run = run_under_node(output);
  EXPECT_TRUE(run.exited && run.exit_status == 0) << run.describe_failure("node") << "\n" << run.captured_stdout;
  EXPECT_EQ(run.captured_stdout.rfind("steps=5 resumes=5 ", 0), 0u) << run.captured_stdout;

  // Binaryen's account: link the core module the same way, hand wasm-opt the analysis's
  // arguments plus asyncify-verbose, and rebuild its final "can change the state" set.
  const fs::path core = scratch / "pointer.core.wasm";
  ChildResult linked = run_child_process({tools.clang, "--target=" + tools.triple, "--sysroot=" + tools.sysroot,
                                          pointer_object.string(), "-o", core.string()});
  ASSERT_TRUE(linked.succeeded()) << linked.describe_failure("clang (link)");
  std::vector<std::string> arguments;
  AsyncifyNarrowingReport report = plan_asyncify_arguments(
      core.string(), {{"asyncify.start_unwind", "asyncify.stop_rewind"}, {}}, (scratch / "list").string(), arguments);
  ASSERT_TRUE(report.analysed) << report.fallback_reason;
  std::vector<std::string> verbose = {discover_wasm_opt(process_environment()).path, core.string(),
                                      "--enable-exception-handling"};
  verbose.insert(verbose.end(), arguments.begin(), arguments.end());
  verbose.insert(verbose.end(), {"--pass-arg=asyncify-verbose", "-o", (scratch / "verbose.wasm").string()});
  // One thread: Binaryen's initial scan runs function-parallel and its threads print their
  // verbose lines unsynchronised, so on a busy machine two lines can interleave mid-line
  // ("worker[asyncify]  can change ...") and the account below would misread them.
  ChildResult account = run_child_process(verbose, true, {"BINARYEN_CORES=1"});
  ASSERT_TRUE(account.succeeded()) << account.describe_failure("wasm-opt");
  std::set<std::string> scanned, removed, propagated;
  std::istringstream out(account.captured_stdout);
  for (std::string line; std::getline(out, line);) {
    const std::string prefix = "[asyncify] ";
    if (line.rfind(prefix, 0) != 0) continue;
    std::string rest = line.substr(prefix.size());
    std::string name = rest.substr(0, rest.find(' '));
    if (rest.find(" can change the state due to initial scan") != std::string::npos) scanned.insert(name);
    else if (rest.find(" is in the remove-list, ignore") != std::string::npos) removed.insert(name);
    else if (rest.find(" can change the state due to ") != std::string::npos) propagated.insert(name);
  }
  std::set<std::string> binaryen = propagated;
  for (const auto& name : scanned) {
    if (!removed.count(name)) binaryen.insert(name);
  }
  EXPECT_EQ(binaryen, std::set<std::string>(report.can_switch_names.begin(), report.can_switch_names.end()))
      << account.captured_stdout;
}
