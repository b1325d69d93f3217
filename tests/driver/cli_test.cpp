// The llgo-wasm command as a process: exit codes, stderr, --help, --json output for
// the five variants (the docs/architecture.md table), sources and cache-key.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using nlohmann::json;

struct CommandResult {
  int status;
  std::string output;  // stdout
  std::string errors;  // stderr
};

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs llgo-wasm with a clean resolution environment plus `environment` ("K=V ..."),
// from `directory` when one is given.
CommandResult run(const std::string& arguments, const std::string& environment = "",
                  const std::filesystem::path& directory = {}) {
  static int counter = 0;
  std::filesystem::path errors = std::filesystem::temp_directory_path() /
                                 ("llgo-wasm-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::string command = (directory.empty() ? "" : "cd '" + directory.string() + "' && ") +
                        "env -u GOOS -u GOARCH -u LLGO_WASI_THREADS -u LLGO_WASM_CONTEXT " + environment + " '" +
                        std::string(LLGO_WASM_CLI) + "' " + arguments + " 2>'" + errors.string() + "'";
  CommandResult result{0, "", ""};
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer;
  std::size_t count;
  while ((count = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), count);
  int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.errors = read_all(errors);
  std::filesystem::remove(errors);
  return result;
}

TEST(Cli, ResolveJsonGivesTheVariantTable) {
  struct Expected {
    const char* environment;
    const char* arguments;
    const char* variant;
    const char* triple;
    int pointer;
    const char* asyncify;
    const char* context;
    const char* eh_final;
  };
  for (const Expected& row : std::vector<Expected>{
           {"GOOS=wasip1", "-target wasm", "J32", "wasm32-unknown-emscripten", 4, "emscripten", "emscripten-fiber", "emscripten"},
           {"GOOS=js GOARCH=wasm", "", "J64", "wasm64-unknown-emscripten", 8, "emscripten", "emscripten-fiber", "emscripten"},
           {"GOOS=wasip1 GOARCH=wasm", "", "P1", "wasm32-unknown-wasip1", 4, "post-link", "asyncify", "exnref"},
           {"GOOS=wasip1 GOARCH=wasm LLGO_WASI_THREADS=1", "", "P1T", "wasm32-wasip1-threads", 4, "none", "pthread", "exnref"},
       }) {
    SCOPED_TRACE(row.variant);
    CommandResult result = run("resolve --json " + std::string(row.arguments), row.environment);
    ASSERT_EQ(result.status, 0) << result.errors;
    json target = json::parse(result.output);
    EXPECT_EQ(target["variant"], row.variant);
    EXPECT_EQ(target["triple"], row.triple);
    EXPECT_EQ(target["data-model"]["pointer"], row.pointer);
    EXPECT_EQ(target["data-model"]["long"], row.pointer);
    EXPECT_EQ(target["data-model"]["ssize_t"], row.pointer);
    EXPECT_EQ(target["capabilities"]["asyncify"], row.asyncify);
    EXPECT_EQ(target["capabilities"]["context"]["default"], row.context);
    EXPECT_EQ(target["capabilities"]["eh"]["final"], row.eh_final);
    EXPECT_EQ(target["capabilities"]["memory64"], std::string(row.variant) == "J64");
  }
  CommandResult native = run("resolve --json");
  ASSERT_EQ(native.status, 0);
  EXPECT_EQ(json::parse(native.output)["variant"], "native");
  EXPECT_EQ(json::parse(run("resolve --json --target=wasm").output)["implied"], (json{{"goos", true}, {"goarch", true}}));
}

// rustc's --print target-spec-json loads back as a target; so does ours, for every built-in
// target and context: `resolve --json --target X > t.json; resolve --json --target t.json`.
TEST(Cli, ResolvedJsonLoadsBackAsTheSameTarget) {
  llgo_wasm::testing::TemporaryDirectory directory("cli-round-trip");
  for (const auto& target : json::parse(run("targets --json").output)) {
    std::string name = target["name"];
    json first = json::parse(run("resolve --json --target " + name).output);
    for (const auto& context : first["capabilities"]["context"]["supported"]) {
      std::string request = "resolve --json --target " + name + " --context " + context.get<std::string>();
      SCOPED_TRACE(request);
      CommandResult resolved = run(request);
      ASSERT_EQ(resolved.status, 0) << resolved.errors;
      auto file = directory.write(name + "-" + context.get<std::string>() + ".json", resolved.output);
      CommandResult again = run("resolve --json --target '" + file.string() + "'");
      ASSERT_EQ(again.status, 0) << again.errors;
      EXPECT_EQ(again.output, resolved.output);
    }
  }
}

TEST(Cli, FlagsOverrideTheEnvironment) {
  CommandResult result = run("resolve --json --goos wasip1 --env LLGO_WASI_THREADS=1", "GOOS=js GOARCH=wasm");
  ASSERT_EQ(result.status, 0) << result.errors;
  EXPECT_EQ(json::parse(result.output)["variant"], "P1T");
  EXPECT_EQ(json::parse(run("resolve --json --context ucontext").output)["capabilities"]["context"]["default"], "ucontext");
  EXPECT_EQ(json::parse(run("resolve --json --target wasip1 --stacks separate").output)["capabilities"]["stacks"]["default"],
            "separate");
}

TEST(Cli, BadInputExitsTwoWithMessageOnStderr) {
  for (const auto& [arguments, environment, fragment] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"resolve --target wasmm", "", "did you mean \"wasm\"?"},
           {"resolve", "GOOS=wasip1 GOARCH=wasm LLGO_WASI_THREADS=true", "use \"1\", \"0\", empty or unset"},
           {"resolve --goos js", "", "is not a supported target"},
           {"resolve --bogus", "", "unknown option \"--bogus\""},
           {"resolve --target", "", "--target needs a value"},
           {"resolve --target wasm --output hello.wasm", "", "use .js or .mjs"},
           {"frobnicate", "", "unknown command \"frobnicate\""},
           {"sources", "", "--dir DIR is required"},
           {"cache-key", "", "--package-root DIR is required"},
           {"cache-key --package-root . --toolchain-id clang", "", "NAME=VERSION"},
           {"resolve --env NOVALUE", "", "--env takes NAME=VALUE"},
       }) {
    SCOPED_TRACE(arguments);
    CommandResult result = run(arguments, environment);
    EXPECT_EQ(result.status, 2);
    EXPECT_TRUE(result.output.empty()) << result.output;
    EXPECT_NE(result.errors.find(fragment), std::string::npos) << result.errors;
    EXPECT_EQ(result.errors.rfind("llgo-wasm: ", 0), 0u) << result.errors;
  }
  EXPECT_EQ(run("").status, 2);
}

TEST(Cli, HelpOnEveryCommand) {
  EXPECT_EQ(run("--help").status, 0);
  for (const char* command : {"targets", "resolve", "sources", "cache-key"}) {
    CommandResult result = run(std::string(command) + " --help");
    EXPECT_EQ(result.status, 0) << command;
    EXPECT_NE(result.output.find(std::string("usage: llgo-wasm ") + command), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("--target NAME|PATH.json"), std::string::npos);
  }
}

TEST(Cli, TargetsListsTheConcreteTargets) {
  CommandResult result = run("targets --json");
  ASSERT_EQ(result.status, 0);
  std::vector<std::string> names;
  for (const auto& target : json::parse(result.output)) names.push_back(target["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"host", "js-wasm", "wasip1", "wasip1-stack-switching", "wasip1-threads", "wasm"}));
  EXPECT_NE(run("targets").output.find("wasip1-threads  P1T     wasm32-wasip1-threads"), std::string::npos);
}

TEST(Cli, WorksFromAnyDirectoryWithACustomDescriptor) {
  llgo_wasm::testing::TemporaryDirectory directory("cli");
  directory.write("mine.json", "{\n  \"name\": \"mine\",\n  \"inherits\": \"wasip1\",\n  \"cflags\": [\"-DMINE\"]\n}\n");
  directory.write("broken.json", "{\n  \"name\": \"broken\",\n  \"inherits\": \"wasip1\",\n  \"ldflag\": []\n}\n");
  json target = json::parse(run("resolve --json --target ./mine.json", "", directory.path()).output);
  CommandResult broken = run("resolve --target '" + (directory.path() / "broken.json").string() + "'");
  EXPECT_EQ(broken.status, 2);
  EXPECT_NE(broken.errors.find("broken.json:4:3: unknown key \"ldflag\" in a target descriptor (did you mean \"ldflags\"?)"),
            std::string::npos)
      << broken.errors;
}

TEST(Cli, SourcesAndExplain) {
  llgo_wasm::testing::TemporaryDirectory directory("cli-sources");
  directory.write("proc_wasip1.c", "//llgo:build wasm && wasip1 && !llgo.wasi_threads\n");
  directory.write("proc_pthread.c", "//llgo:build llgo.context_pthread\n");
  directory.write("fatal_wasm.c", "//llgo:build wasm && !llgo.wasi_threads\n");
  directory.write("fatal_default.c", "//llgo:build !wasm || llgo.wasi_threads\n");
  std::string dir = " --dir '" + directory.path().string() + "'";
  CommandResult p1 = run("sources" + dir, "GOOS=wasip1 GOARCH=wasm");
  EXPECT_EQ(p1.status, 0) << p1.errors;
  EXPECT_EQ(p1.output, "fatal_wasm.c\nproc_wasip1.c\n");
  CommandResult p1t = run("sources" + dir, "GOOS=wasip1 GOARCH=wasm LLGO_WASI_THREADS=1");
  EXPECT_EQ(p1t.output, "fatal_default.c\nproc_pthread.c\n");
  CommandResult explained = run("sources --explain" + dir, "GOOS=wasip1 GOARCH=wasm");
  EXPECT_NE(explained.output.find("excluded proc_pthread.c:1: llgo.context_pthread  [llgo.context_pthread=no]"),
            std::string::npos)
      << explained.output;
  json document = json::parse(run("sources --json --explain" + dir, "GOOS=wasip1 GOARCH=wasm").output);
  EXPECT_EQ(document["selected"], (json{"fatal_wasm.c", "proc_wasip1.c"}));
  EXPECT_EQ(document["decisions"].size(), 4u);
  directory.write("bad.c", "\n//llgo:build wasm ||\n");
  CommandResult bad = run("sources" + dir, "GOOS=wasip1 GOARCH=wasm");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.errors.find("bad.c:2:"), std::string::npos) << bad.errors;
}

TEST(Cli, EveryOutputEndsWithANewline) {
  llgo_wasm::testing::TemporaryDirectory directory("cli-newline");
  std::string dir = " --dir '" + directory.path().string() + "'";
  std::string root = " --package-root '" + directory.path().string() + "'";
  for (const std::string& arguments : {"sources" + dir, "sources --explain" + dir, "sources --json" + dir,
                                       "sources --json --explain" + dir, "cache-key --explain" + root}) {
    directory.write("a.c", "//llgo:build wasm\n");
    for (bool with_file : {true, false}) {
      if (!with_file) std::filesystem::remove(directory.path() / "a.c");
      CommandResult result = run(arguments, "GOOS=wasip1 GOARCH=wasm");
      EXPECT_EQ(result.status, 0) << arguments << ": " << result.errors;
      // Plain `sources` with nothing selected prints nothing at all.
      EXPECT_TRUE(result.output.empty() ? arguments == "sources" + dir && !with_file : result.output.back() == '\n')
          << arguments << " printed:\n" << result.output;
    }
  }
}

TEST(Cli, HostileInputExitsTwoWithAMessage) {
  CommandResult typo = run("resolve --target wsam");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.errors.find("(did you mean \"wasm\"?)"), std::string::npos) << typo.errors;

  llgo_wasm::testing::TemporaryDirectory directory("cli-hostile");
  directory.write("deep/x.json", R"({"name": "x", "inherits": "wasip1", "//": )" + std::string(20000, '[') +
                                     std::string(20000, ']') + "}");
  CommandResult deep = run("resolve --target '" + (directory.path() / "deep/x.json").string() + "'");
  EXPECT_EQ(deep.status, 2) << deep.errors;
  EXPECT_NE(deep.errors.find("deep/x.json:1:106: JSON nested deeper than 64 levels"), std::string::npos) << deep.errors;

  directory.write("nots/a.c", "//llgo:build " + std::string(300000, '!') + "wasm\n");
  CommandResult nots = run("sources --dir '" + (directory.path() / "nots").string() + "'", "GOOS=wasip1 GOARCH=wasm");
  EXPECT_EQ(nots.status, 2) << nots.errors;
  EXPECT_NE(nots.errors.find("a.c:1:4110: build constraint longer than 4096 characters"), std::string::npos) << nots.errors;

  // Found by fuzz_link_arguments: --json with a path that is not UTF-8 was an "internal error".
  CommandResult latin1 = run("link --target wasip1 --dry-run --json -o 'caf\xe9.wasm' main.o");
  EXPECT_EQ(latin1.status, 2) << latin1.errors;
  EXPECT_NE(latin1.errors.find("--json cannot print a file name or argument that is not valid UTF-8"), std::string::npos)
      << latin1.errors;
  EXPECT_EQ(run("link --target wasip1 --dry-run -o 'caf\xe9.wasm' main.o").status, 0);

  // `inherits` outside the descriptor's directory needs --descriptor-path.
  directory.write("shared/base.json", R"({"name": "base", "abstract": true, "inherits": "wasip1"})");
  directory.write("project/x.json", R"({"name": "x", "inherits": "base.json"})");
  std::string target = " --target '" + (directory.path() / "project/x.json").string() + "'";
  CommandResult narrow = run("resolve" + target);
  EXPECT_EQ(narrow.status, 2);
  EXPECT_NE(narrow.errors.find("parent \"base.json\" not found"), std::string::npos) << narrow.errors;
  CommandResult widened = run("resolve" + target + " --descriptor-path '" + (directory.path() / "shared").string() + "'");
  EXPECT_EQ(widened.status, 0) << widened.errors;
}

// Issue 30 (D9): a directory as --target was "a JSON syntax error"; `link -o same.o same.o`
// replaced its input with the executable.
TEST(Cli, OddTargetsAndOutputsExitTwoAndOverwriteNothing) {
  llgo_wasm::testing::TemporaryDirectory directory("cli-odd");
  CommandResult folder = run("resolve --target '" + directory.path().string() + "'");
  EXPECT_EQ(folder.status, 2) << folder.errors;
  EXPECT_NE(folder.errors.find(": is a directory, not a target descriptor"), std::string::npos) << folder.errors;
  EXPECT_EQ(folder.errors.find("JSON"), std::string::npos) << folder.errors;

  directory.write("same.o", "the only copy of an object");
  std::filesystem::create_symlink("same.o", directory.path() / "alias.o");
  for (const std::string line : {"-o same.o same.o", "--dry-run -o same.o same.o", "-o ./same.o other.o same.o",
                                 "-o alias.o same.o"}) {
    SCOPED_TRACE(line);
    CommandResult same = run("link --target wasip1 " + line, "", directory.path());
    EXPECT_EQ(same.status, 2) << same.errors;
    EXPECT_NE(same.errors.find("is also an input of the link"), std::string::npos) << same.errors;
    EXPECT_NE(same.errors.find("choose another output name"), std::string::npos) << same.errors;
    EXPECT_EQ(read_all(directory.path() / "same.o"), "the only copy of an object");
  }
}

TEST(Cli, CacheKey) {
  llgo_wasm::testing::TemporaryDirectory directory("cli-key");
  directory.write("a.go", "package a\n");
  directory.write("b.go", "package a // b\n");
  std::string root = " --package-root '" + directory.path().string() + "'";
  CommandResult first = run("cache-key --target wasip1 --toolchain-id clang=19.1.7 --flag -O2 --dep-key k1 --dep-key k2" + root);
  CommandResult reordered = run("cache-key --target wasip1 --dep-key k2 --toolchain-id clang=19.1.7 --flag -O2 --dep-key k1 "
                      "--file b.go --file a.go" + root);
  ASSERT_EQ(first.status, 0) << first.errors;
  EXPECT_EQ(first.output.size(), 65u);
  EXPECT_EQ(first.output, reordered.output);
  EXPECT_NE(first.output, run("cache-key --target wasm --toolchain-id clang=19.1.7 --flag -O2 --dep-key k1 --dep-key k2" + root).output);
  json document = json::parse(run("cache-key --json --target wasip1" + root).output);
  EXPECT_EQ(document["inputs"].size(), 2u);
  EXPECT_EQ(document["format"], "llgo-wasm-cache-key/2");
  EXPECT_NE(run("cache-key --explain --target wasip1" + root).output.find("target.triple 21:wasm32-unknown-wasip1\n"),
            std::string::npos);
}

}  // namespace
