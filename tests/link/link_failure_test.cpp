// All-or-nothing publishing with fake tools: a failing, crashing, SIGKILLed or disk-full
// wasm-opt, a missing tool and a module that fails validation all leave the previous output
// byte-identical and no temporary behind; stale temporaries are swept; eight concurrent links
// to one output end with one complete module.
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "link_test_support.hpp"
#include "llgo_wasm/link_command.hpp"
#include "llgo_wasm/link_executor.hpp"

extern char** environ;

using namespace llgo_wasm;
namespace fs = std::filesystem;
using link_test::TestModuleShape;

namespace {

using link_test::resolved_p1;

class LinkFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch = link_test::make_scratch_directory("failure");
    link_test::write_fake_tools(scratch);
    TestModuleShape core;
    core.import_asyncify = true;
    core.legacy_try = true;
    link_test::write_file(scratch / "core.wasm", link_test::build_test_module(core));
    TestModuleShape final_shape;
    final_shape.try_table = true;
    final_module = link_test::build_test_module(final_shape);
    link_test::write_file(scratch / "final.wasm", final_module);
    TestModuleShape previous_shape;
    previous_shape.padding_functions = 3;
    previous_output = link_test::build_test_module(previous_shape);
    fs::create_directories(scratch / "out");
    output = scratch / "out" / "app.wasm";
    link_test::write_file(output, previous_output);
    setenv("WASMOPT", (scratch / "fake-wasm-opt").c_str(), 1);
    setenv("FAKE_CORE_MODULE", (scratch / "core.wasm").c_str(), 1);
    setenv("FAKE_FINAL_MODULE", (scratch / "final.wasm").c_str(), 1);
    setenv("FAKE_CLANG_LOG", (scratch / "clang.log").c_str(), 1);
    setenv("FAKE_WASM_OPT_LOG", (scratch / "wasm-opt.log").c_str(), 1);
    setenv("FAKE_WASM_OPT_PIDFILE", (scratch / "wasm-opt.pid").c_str(), 1);
    setenv("FAKE_WASM_OPT_MODE", "ok", 1);
  }
  void TearDown() override {
    for (const char* name : {"WASMOPT", "FAKE_CORE_MODULE", "FAKE_FINAL_MODULE", "FAKE_CLANG_LOG", "FAKE_WASM_OPT_LOG",
                             "FAKE_WASM_OPT_PIDFILE", "FAKE_WASM_OPT_MODE", "FAKE_WASM_OPT_DELAY"}) {
      unsetenv(name);
    }
    fs::remove_all(scratch);
  }

  std::vector<std::string> link_args(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--cc", (scratch / "fake-clang").string(), "--sysroot", scratch.string(),
                                     "-O2", "main.o", "-o", output.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  // Runs the link with stderr captured; returns the exit status.
  int link(std::vector<std::string> extra = {}) {
    testing::internal::CaptureStderr();
    int status = run_link_command(resolved_p1(), link_args(std::move(extra)));
    diagnostics = testing::internal::GetCapturedStderr();
    return status;
  }

  void expect_previous_output_and_no_temporaries() {
    EXPECT_EQ(link_test::read_file(output), previous_output) << "the previous output was changed";
    EXPECT_TRUE(link_test::temporaries_in(output.parent_path()).empty())
        << "temporary left: " << link_test::temporaries_in(output.parent_path()).front();
  }

  fs::path scratch;
  fs::path output;
  std::vector<uint8_t> final_module;
  std::vector<uint8_t> previous_output;
  std::string diagnostics;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_F(LinkFailure, SuccessPublishesTheFinalModule) {
  ASSERT_EQ(link({"-v"}), 0) << diagnostics;
  EXPECT_EQ(link_test::read_file(output), final_module);
  EXPECT_TRUE(link_test::temporaries_in(output.parent_path()).empty());
  std::string clang_line = read_text(scratch / "clang.log");
  EXPECT_EQ(clang_line.find("-O2"), std::string::npos) << clang_line;
  std::string opt_line = read_text(scratch / "wasm-opt.log");
  EXPECT_LT(opt_line.find("--asyncify"), opt_line.find("--translate-to-exnref")) << opt_line;
  EXPECT_NE(opt_line.find("-O2"), std::string::npos) << opt_line;
  EXPECT_NE(diagnostics.find("[4/6] asyncify+exnref"), std::string::npos) << diagnostics;
  // The fake core module links no runtime: the stack check leaves it alone and says why.
  EXPECT_NE(diagnostics.find("[2/6] stack-check"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find("stack check: none (the module has no __llgo_stack_guard"), std::string::npos) << diagnostics;
  // The fake core module calls asyncify.start_unwind: the analysis says so on -v.
  EXPECT_NE(diagnostics.find("[3/6] asyncify-analysis"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find("1 of 1 functions can reach a switch point"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find(" B -> "), std::string::npos) << "-v shows module sizes before/after: " << diagnostics;
}

TEST_F(LinkFailure, WasmOptExitingWithAnErrorLeavesThePreviousOutput) {
  setenv("FAKE_WASM_OPT_MODE", "fail", 1);
  EXPECT_EQ(link(), 1);
  EXPECT_NE(diagnostics.find("fake-wasm-opt failed with exit status 1"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find("(asyncify+exnref)"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, WasmOptCrashingLeavesThePreviousOutput) {
  setenv("FAKE_WASM_OPT_MODE", "crash", 1);
  EXPECT_EQ(link(), 1);
  EXPECT_NE(diagnostics.find("killed by SIGSEGV"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, WasmOptKilledBySigkillMidRunLeavesThePreviousOutput) {
  setenv("FAKE_WASM_OPT_MODE", "hang", 1);
  std::thread killer([this] {
    // The fake writes its pid (a whole line) once it has written part of the output: mid-run.
    // Polled until the line is complete, not for a fixed time (a loaded machine may take longer
    // than any pause between the file's creation and the write); 10 s only against a hang.
    const fs::path pid_file = scratch / "wasm-opt.pid";
    pid_t pid = 0;
    for (int i = 0; i < 200 && pid <= 0; ++i) {
      std::ifstream in(pid_file);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!text.empty() && text.back() == '\n') pid = static_cast<pid_t>(std::atol(text.c_str()));
      if (pid <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (pid > 0) kill(pid, SIGKILL);
  });
  int status = link();
  killer.join();
  EXPECT_EQ(status, 1);
  EXPECT_NE(diagnostics.find("killed by SIGKILL"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, TruncatedWriteFromAFullDiskLeavesThePreviousOutput) {
  setenv("FAKE_WASM_OPT_MODE", "truncate", 1);
  EXPECT_EQ(link(), 1);
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, RealFullDiskLeavesThePreviousOutput) {
  // A tiny tmpfs holds the previous output; the final module does not fit beside it.
  const fs::path mount_point = scratch / "small";
  fs::create_directories(mount_point);
  if (mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=12k") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root); TruncatedWrite... covers the simulated case";
  }
  output = mount_point / "app.wasm";
  link_test::write_file(output, previous_output);
  TestModuleShape big;
  big.try_table = true;
  big.padding_functions = 6000;  // ~18 KB: larger than the space left
  link_test::write_file(scratch / "final.wasm", link_test::build_test_module(big));
  int status = link();
  EXPECT_EQ(status, 1) << diagnostics;
  EXPECT_NE(diagnostics.find("No space left on device"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
  umount(mount_point.c_str());
}

TEST_F(LinkFailure, MissingToolsLeaveThePreviousOutput) {
  testing::internal::CaptureStderr();
  int status = run_link_command(resolved_p1(), {"--cc", (scratch / "no-such-clang").string(), "main.o", "-o", output.string()});
  diagnostics = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, 1);
  EXPECT_NE(diagnostics.find("could not run no-such-clang"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();

  setenv("WASMOPT", (scratch / "no-such-wasm-opt").c_str(), 1);
  EXPECT_EQ(link(), 1);
  EXPECT_NE(diagnostics.find("WASMOPT: " + (scratch / "no-such-wasm-opt").string() + " does not exist"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, TooOldWasmOptIsRefused) {
  setenv("FAKE_WASM_OPT_VERSION", "108", 1);
  EXPECT_EQ(link(), 1);
  unsetenv("FAKE_WASM_OPT_VERSION");
  EXPECT_NE(diagnostics.find("is Binaryen 108, too old"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, ValidationFailureNamesTheInstructionAndLeavesThePreviousOutput) {
  setenv("FAKE_FINAL_MODULE", (scratch / "core.wasm").c_str(), 1);  // "wasm-opt" that changed nothing
  EXPECT_EQ(link(), 1);
  EXPECT_NE(diagnostics.find("'try' in function 1 (entry_function)"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find("import asyncify.start_unwind was left"), std::string::npos) << diagnostics;
  expect_previous_output_and_no_temporaries();
}

TEST_F(LinkFailure, DryRunPrintsThePlanAndTouchesNothing) {
  testing::internal::CaptureStdout();
  int status = run_link_command(resolved_p1(), link_args({"--dry-run"}));
  std::string plan = testing::internal::GetCapturedStdout();
  EXPECT_EQ(status, 0);
  EXPECT_NE(plan.find("2. stack-check: "), std::string::npos) << plan;
  EXPECT_NE(plan.find("3. asyncify-analysis: "), std::string::npos) << plan;
  EXPECT_NE(plan.find("4. asyncify+exnref: " + (scratch / "fake-wasm-opt").string()), std::string::npos) << plan;
  EXPECT_NE(plan.find("6. publish: rename"), std::string::npos) << plan;
  EXPECT_FALSE(fs::exists(scratch / "clang.log"));
  expect_previous_output_and_no_temporaries();

  testing::internal::CaptureStdout();
  EXPECT_EQ(run_link_command(resolved_p1(), link_args({"--dry-run", "--json"})), 0);
  nlohmann::json json = nlohmann::json::parse(testing::internal::GetCapturedStdout());
  EXPECT_EQ(json["steps"].size(), 6u);
}

TEST_F(LinkFailure, PrintWasmOptGivesTheExactVersion) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_link_command(resolved_p1(), {"--print-wasm-opt"}), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "wasm-opt version 132 (version_132)\n");
}

TEST_F(LinkFailure, BadArgumentsExitWithStatusTwo) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_link_command(resolved_p1(), {"main.o"}), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("no output: pass -o OUTPUT"), std::string::npos);
}

TEST_F(LinkFailure, StaleTemporariesOfDeadRunsAreSwept) {
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  const fs::path stale = output.parent_path() / (".app.wasm.core." + std::to_string(dead) + ".a1b2c3.tmp");
  const fs::path live = output.parent_path() / (".app.wasm.core." + std::to_string(getppid()) + ".d4e5f6.tmp");
  const fs::path other_output = output.parent_path() / (".other.wasm.core." + std::to_string(dead) + ".a1b2c3.tmp");
  for (const auto& path : {stale, live, other_output}) {
    link_test::write_text(path, "partial");
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::minutes(5));
  }
  ASSERT_EQ(link(), 0) << diagnostics;
  EXPECT_FALSE(fs::exists(stale)) << "stale temporary of a dead run was not swept";
  EXPECT_TRUE(fs::exists(live)) << "a temporary of a live process was removed";
  EXPECT_TRUE(fs::exists(other_output)) << "a temporary of another output was removed";
  fs::remove(live);
  fs::remove(other_output);
}

TEST_F(LinkFailure, EightConcurrentLinksEndWithOneCompleteModule) {
  setenv("FAKE_WASM_OPT_DELAY", "0.3", 1);
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    std::vector<std::string> words = {LLGO_WASM_LINK_TEST_CLI, "link", "--target", "wasip1"};
    auto args = link_args();
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ), 0);
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a concurrent link failed";
  }
  EXPECT_EQ(link_test::read_file(output), final_module);
  EXPECT_TRUE(link_test::temporaries_in(output.parent_path()).empty());
}
