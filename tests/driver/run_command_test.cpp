// `llgo-wasm run` as a process: usage errors exit 2 with a message that says what to fix,
// --print-command shows the engine's command (tools found as the toolchain files find them, at the
// engine's minimum version, {environment} expanded), --list-engines, the target told from the
// program, and real runs whose stdout, stderr, exit status, arguments and environment are the
// program's own (a native program; a WASI module under Node and under WasmEdge when they are here).
// Plus the pieces the command is built from (engine_tool.hpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "llgo_wasm/engine_tool.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using llgo_wasm::testing::TemporaryDirectory;

struct RunResult {
  int status;
  std::string output;
  std::string errors;
};

std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `llgo-wasm run <arguments>` with no target variables and no tool of the machine but those
// `environment` names ("K=V" words, quoted here), from `directory`.
RunResult run(const std::vector<std::string>& arguments, const std::vector<std::string>& environment,
              const std::filesystem::path& directory) {
  static int counter = 0;
  std::filesystem::path errors = directory / ("stderr-" + std::to_string(counter++));
  std::string command = "cd " + quoted(directory.string()) +
                        " && env -u GOOS -u GOARCH -u LLGO_WASI_THREADS -u NODE -u NODE26 -u WASMEDGE -u WASMTIME" +
                        " LLGO_WASM_TOOLCHAIN_DIR=" + quoted((directory / "no-toolchain").string()) +
                        " PATH=/usr/bin:/bin";
  for (const auto& setting : environment) command += " " + quoted(setting);
  command += " " + quoted(LLGO_WASM_CLI) + " run";
  for (const auto& argument : arguments) command += " " + quoted(argument);
  command += " 2>" + quoted(errors.string());
  RunResult result{0, "", ""};
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer;
  std::size_t count;
  while ((count = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), count);
  int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(errors);
  result.errors.assign(std::istreambuf_iterator<char>(in), {});
  return result;
}

std::filesystem::path executable(const TemporaryDirectory& directory, const std::string& name, const std::string& script) {
  std::filesystem::path file = directory.write(name, script);
  chmod(file.c_str(), 0755);
  return file;
}

// A tool that says it is `version` and otherwise prints what it was given.
std::filesystem::path fake_tool(const TemporaryDirectory& directory, const std::string& name, const std::string& version) {
  return executable(directory, "tools/" + name,
                    "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + version + "'; exit 0; fi\necho \"" + name + " $*\"\n");
}

// The smallest WASI command: _start calls proc_exit(status); with `shared`, its memory is an
// imported shared one (what a wasi-threads module has).
std::string wasi_module(int status, bool shared = false) {
  std::string m("\0asm\1\0\0\0", 8);
  auto section = [&](char id, const std::string& body) { m += id; m += static_cast<char>(body.size()); m += body; };
  section(1, std::string("\x02\x60\x01\x7f\x00\x60\x00\x00", 8));  // (i32) -> (), () -> ()
  std::string imports = std::string(1, shared ? 2 : 1) + "\x16wasi_snapshot_preview1\x09proc_exit" + std::string("\x00\x00", 2);
  if (shared) imports += std::string("\x03" "env" "\x06" "memory" "\x02\x03\x01\x01", 15);
  section(2, imports);
  section(3, std::string("\x01\x01", 2));  // one function of type 1
  if (!shared) section(5, std::string("\x01\x00\x01", 3));
  section(7, std::string("\x02\x06_start\x00\x01\x06memory\x02\x00", 19));
  section(10, std::string("\x01\x06\x00\x41", 4) + static_cast<char>(status) + std::string("\x10\x00\x0b", 3));
  return m;
}

TEST(RunCommand, UsageErrorsExitTwoAndSayWhatToFix) {
  TemporaryDirectory directory("run-usage");
  directory.write("app.wasm", wasi_module(0));
  directory.write("app.js", "console.log('hi')\n");
  for (const auto& [arguments, fragment] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, "run: no program given; usage: llgo-wasm run [--target T] [--engine E] PROGRAM [ARG...]"},
           {{"--engine"}, "run: --engine needs a value"},
           {{"--frobnicate", "app.wasm"}, "run: unknown option \"--frobnicate\""},
           {{"--target", "wasip1", "missing.wasm"}, "run: missing.wasm: no such file"},
           {{"--target", "wasip1", "--engine", "nodejs", "app.wasm"},
            "target wasip1 has no engine \"nodejs\"; its engines: chromium, node-wasi, wasmedge, wasmtime"},
           {{"--target", "wasip1", "app.js"}, "target wasip1 writes .wasm programs, and app.js is .js; name the target that built it"},
           {{"--target", "wasm", "--engine", "node-esm", "app.js"}, "engine node-esm of target wasm runs .mjs programs, and app.js is .js"},
           {{"--target", "wasmm", "app.wasm"}, "did you mean \"wasm\"?"},
           {{"--json", "app.wasm"}, "--json goes with --print-command or --list-engines"},
           {{"--list-engines", "app.wasm"}, "--list-engines takes no program"},
           {{"--target", "wasip1", "app.wasm"}, "no engine of target wasip1 that runs .wasm programs is here:\n  node-wasi: its tool node (>= 24) is not here"},
       }) {
    SCOPED_TRACE(::testing::PrintToString(arguments));
    RunResult result = run(arguments, {"LLGO_WASM_ROOT=" + std::string(LLGO_WASM_SOURCE_DIR)}, directory.path());
    EXPECT_EQ(result.status, 2);
    EXPECT_TRUE(result.output.empty()) << result.output;
    EXPECT_EQ(result.errors.rfind("llgo-wasm: ", 0), 0u) << result.errors;
    EXPECT_NE(result.errors.find(fragment), std::string::npos) << result.errors;
  }
}

TEST(RunCommand, PrintCommandShowsTheEngineTheDescriptorNames) {
  TemporaryDirectory directory("run-print");
  directory.write("app.wasm", wasi_module(0));
  const std::string node = fake_tool(directory, "node", "v24.1.0").string();
  const std::string root = LLGO_WASM_SOURCE_DIR;
  RunResult result = run({"--print-command", "--target", "wasip1", "app.wasm", "a", "b c", "--help"},
                         {"NODE=" + node, "LLGO_WASM_ROOT=" + root}, directory.path());
  ASSERT_EQ(result.status, 0) << result.errors;
  EXPECT_EQ(result.output, node + " " + root + "/tests/runners/run-wasi.mjs app.wasm a 'b c' --help\n");

  RunResult as_json = run({"--print-command", "--json", "app.wasm"}, {"NODE=" + node, "LLGO_WASM_ROOT=" + root}, directory.path());
  ASSERT_EQ(as_json.status, 0) << as_json.errors;
  json document = json::parse(as_json.output);
  EXPECT_EQ(document["target"], "wasip1") << "told from the module: no shared memory, no stack switching";
  EXPECT_EQ(document["engine"], "node-wasi");
  EXPECT_EQ(document["tool"]["source"], "NODE");
  EXPECT_EQ(document["tool"]["version"], "24.1.0");
  EXPECT_EQ(document["command"], (json{node, root + "/tests/runners/run-wasi.mjs", "app.wasm"}));

  // A module with a shared memory is a wasi-threads program: the threads runner.
  directory.write("threads.wasm", wasi_module(0, true));
  RunResult threads = run({"--print-command", "--json", "threads.wasm"}, {"NODE=" + node, "LLGO_WASM_ROOT=" + root}, directory.path());
  ASSERT_EQ(threads.status, 0) << threads.errors;
  EXPECT_EQ(json::parse(threads.output)["target"], "wasip1-threads");
  EXPECT_EQ(json::parse(threads.output)["command"][1], root + "/tests/runners/run-wasi-threads.mjs");
}

TEST(RunCommand, EnginesAreFoundAtTheirMinimumVersion) {
  TemporaryDirectory directory("run-versions");
  directory.write("app.wasm", wasi_module(0));
  const std::string old_node = fake_tool(directory, "old/node", "v18.19.0").string();
  const std::string wasmedge = fake_tool(directory, "wasmedge", "wasmedge version 0.14.1").string();
  const std::string root = "LLGO_WASM_ROOT=" + std::string(LLGO_WASM_SOURCE_DIR);
  // An explicit tool that is too old is the error, never silently replaced.
  RunResult old = run({"--target", "wasip1", "--engine", "node-wasi", "app.wasm"}, {"NODE=" + old_node, root}, directory.path());
  EXPECT_EQ(old.status, 2);
  EXPECT_NE(old.errors.find("NODE: " + old_node + " is version 18.19.0, older than 24"), std::string::npos) << old.errors;
  EXPECT_NE(old.errors.find("set NODE=/path/to/node (version >= 24)"), std::string::npos) << old.errors;
  // Without --engine the next of run-engines that is here runs it: WasmEdge, with the program's
  // environment passed as --env words.
  RunResult next = run({"--print-command", "app.wasm", "x"}, {"NODE=" + old_node, "WASMEDGE=" + wasmedge, "PROBE=a b", root},
                       directory.path());
  ASSERT_EQ(next.status, 0) << next.errors;
  EXPECT_EQ(next.output.rfind(wasmedge + " --enable-exception-handling ", 0), 0u) << next.output;
  EXPECT_NE(next.output.find(" '--env=PROBE=a b' "), std::string::npos) << next.output;
  EXPECT_NE(next.output.find(" app.wasm x\n"), std::string::npos) << next.output;

  RunResult listed = run({"--list-engines", "--json", "--target", "wasip1"}, {"NODE=" + old_node, "WASMEDGE=" + wasmedge, root},
                         directory.path());
  ASSERT_EQ(listed.status, 0) << listed.errors;
  json engines = json::parse(listed.output)["engines"];
  EXPECT_FALSE(engines["node-wasi"]["here"]);
  EXPECT_NE(engines["node-wasi"]["problem"].get<std::string>().find("older than 24"), std::string::npos);
  EXPECT_TRUE(engines["wasmedge"]["here"]);
  EXPECT_EQ(engines["wasmedge"]["command"],
            (json{wasmedge, "--enable-exception-handling", "--env={environment}", "{program}"}));
  EXPECT_EQ(json::parse(listed.output)["run-engines"], (json{"node-wasi", "wasmedge", "wasmtime"}));
}

// A real run: the program's stdout, stderr, arguments, environment and exit status are its own.
TEST(RunCommand, RunsANativeProgramAsItself) {
  TemporaryDirectory directory("run-native");
  executable(directory, "app", "#!/bin/sh\necho \"args: $1|$2\"\necho \"probe: $PROBE\"\necho to-stderr >&2\nexit 7\n");
  RunResult result = run({"--target", "host", "./app", "one", "two words"}, {"PROBE=from the caller"}, directory.path());
  EXPECT_EQ(result.status, 7);
  EXPECT_EQ(result.output, "args: one|two words\nprobe: from the caller\n");
  EXPECT_EQ(result.errors, "to-stderr\n");
  // Told from the program itself: not a WebAssembly module, an extension no wasm target writes.
  RunResult inferred = run({"./app"}, {"PROBE=x"}, directory.path());
  EXPECT_EQ(inferred.status, 7) << inferred.errors;
}

// The same through the real engines of P1, whichever are here (the toolchain setup installs both).
TEST(RunCommand, RunsAWasiModuleUnderItsEngines) {
  TemporaryDirectory directory("run-wasi");
  directory.write("exit3.wasm", wasi_module(3));
  const std::vector<std::string> machine = {
      "LLGO_WASM_ROOT=" + std::string(LLGO_WASM_SOURCE_DIR),
      "LLGO_WASM_TOOLCHAIN_DIR=" + llgo_wasm::project_toolchain_dir(llgo_wasm::process_environment()).value_or("")};
  int ran = 0;
  for (const char* engine : {"node-wasi", "wasmedge"}) {
    SCOPED_TRACE(engine);
    RunResult listed = run({"--list-engines", "--json", "--target", "wasip1"}, machine, directory.path());
    ASSERT_EQ(listed.status, 0) << listed.errors;
    if (!json::parse(listed.output)["engines"][engine]["here"].get<bool>()) continue;
    RunResult result = run({"--engine", engine, "exit3.wasm"}, machine, directory.path());
    EXPECT_EQ(result.status, 3) << result.errors;
    EXPECT_EQ(result.output, "");
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "neither Node >= 24 nor WasmEdge is here (tools/setup-toolchain.sh installs both)";
}

TEST(EngineTool, VersionsAndVariables) {
  using llgo_wasm::compare_versions;
  using llgo_wasm::first_version_number;
  EXPECT_EQ(first_version_number("v24.11.1"), "24.11.1");
  EXPECT_EQ(first_version_number("wasmedge version 0.14.1"), "0.14.1");
  EXPECT_EQ(first_version_number("/opt/x86_64/wasmtime 39.0.0 (abc 2025-11-20)"), "39.0.0") << "a dotted number first";
  EXPECT_EQ(first_version_number("tool 7"), "7");
  EXPECT_FALSE(first_version_number("no version").has_value());
  EXPECT_LT(compare_versions("18.19.0", "24"), 0);
  EXPECT_EQ(compare_versions("24", "24.0.0"), 0);
  EXPECT_GT(compare_versions("0.14.1", "0.14"), 0);
  EXPECT_LT(compare_versions("0.9", "0.14"), 0);
  EXPECT_EQ(llgo_wasm::engine_tool_variable("node26"), "NODE26");
  EXPECT_EQ(llgo_wasm::engine_tool_variable("qemu-aarch64"), "QEMU_AARCH64");
}

}  // namespace
