// Runtime source selection against a runtime-like directory written by the test.
#include <gtest/gtest.h>

#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/source_selection.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;
using testing::TemporaryDirectory;

// The runtime's selection rules, as the runtime files state them.
void write_runtime(const TemporaryDirectory& directory) {
  directory.write("fatal_wasm.c", "// fatal for single-worker wasm\n//llgo:build wasm && !llgo.wasi_threads\nint x;\n");
  directory.write("fatal_default.c", "/* top comment */\n//llgo:build !wasm || llgo.wasi_threads\n");
  directory.write("proc_wasip1.c", "//llgo:build wasm && wasip1 && !llgo.wasi_threads\n");
  directory.write("proc_pthread.c", "//llgo:build llgo.context_pthread\n");
  directory.write("proc_wasm.c", "//llgo:build js && wasm\n");
  directory.write("wasmcontext_ucontext.c", "//llgo:build llgo.context_ucontext\n");
  directory.write("runtime.h", "#pragma once\n//llgo:build llgo\n");
  directory.write("switch_wasm.S", "//llgo:build wasm && !llgo.wasi_threads\n");
  directory.write("README.md", "not a source\n");
  directory.write("nested/ignored.c", "no constraint, but not scanned\n");
}

std::vector<std::string> selected(const Query& query, const TemporaryDirectory& directory) {
  std::vector<std::string> files;
  for (const auto& decision : select_runtime_sources(resolve_target(builtin_descriptors(), query), directory.path())) {
    if (decision.selected) files.push_back(decision.file);
  }
  return files;
}

Query query_for(std::optional<std::string> target, std::map<std::string, std::string> environment = {}) {
  Query query;
  query.target = std::move(target);
  query.environment = std::move(environment);
  return query;
}

TEST(SourceSelection, EachVariantSelectsItsRuntime) {
  TemporaryDirectory directory("sources");
  write_runtime(directory);
  EXPECT_EQ(selected(query_for(std::nullopt, {{"GOOS", "wasip1"}, {"GOARCH", "wasm"}}), directory),
            (std::vector<std::string>{"fatal_wasm.c", "proc_wasip1.c", "runtime.h", "switch_wasm.S"}));
  EXPECT_EQ(selected(query_for(std::nullopt, {{"GOOS", "wasip1"}, {"GOARCH", "wasm"}, {"LLGO_WASI_THREADS", "1"}}), directory),
            (std::vector<std::string>{"fatal_default.c", "proc_pthread.c", "runtime.h"}));
  for (const char* name : {"wasm", "js-wasm"}) {
    EXPECT_EQ(selected(query_for(name), directory),
              (std::vector<std::string>{"fatal_wasm.c", "proc_wasm.c", "runtime.h", "switch_wasm.S"}))
        << name;
  }
  EXPECT_EQ(selected(query_for("host"), directory), (std::vector<std::string>{"fatal_default.c", "proc_pthread.c", "runtime.h"}));
  Query ucontext = query_for("host");
  ucontext.context = "ucontext";
  EXPECT_EQ(selected(ucontext, directory),
            (std::vector<std::string>{"fatal_default.c", "runtime.h", "wasmcontext_ucontext.c"}));
}

TEST(SourceSelection, ExplainsEveryDecision) {
  TemporaryDirectory directory("explain");
  write_runtime(directory);
  auto decisions = select_runtime_sources(resolve_target(builtin_descriptors(), query_for("wasip1")), directory.path());
  ASSERT_EQ(decisions.size(), 8u);
  const SourceDecision& proc = decisions[3];
  EXPECT_EQ(proc.file, "proc_wasip1.c");
  EXPECT_TRUE(proc.selected);
  EXPECT_EQ(proc.line, 1);
  EXPECT_EQ(explain(proc), "selected proc_wasip1.c:1: wasm && wasip1 && !llgo.wasi_threads  [wasm=yes wasip1=yes llgo.wasi_threads=no]");
  EXPECT_EQ(explain(decisions[2]), "excluded proc_pthread.c:1: llgo.context_pthread  [llgo.context_pthread=no]");
  EXPECT_EQ(decisions[1].line, 2);  // fatal_wasm.c: the constraint is on line 2
}

TEST(SourceSelection, MissingRepeatedOrMalformedConstraintIsAnError) {
  TemporaryDirectory directory("bad-sources");
  Query query = query_for("wasip1");
  auto missing = directory.write("missing.c", "int x;\n//llgo:buildx wasm\n");
  EXPECT_TRUE(fails_with([&] { selected(query, directory); }, {missing.string() + ": no //llgo:build line"}));
  std::filesystem::remove(missing);
  auto twice = directory.write("twice.c", "//llgo:build wasm\n\n//llgo:build wasip1\n");
  EXPECT_TRUE(fails_with([&] { selected(query, directory); }, {twice.string() + ":3:1", "a second //llgo:build line (the first is on line 1)"}));
  std::filesystem::remove(twice);
  auto malformed = directory.write("malformed.h", "// header\n//llgo:build wasm &&& wasip1\n");
  EXPECT_TRUE(fails_with([&] { selected(query, directory); }, {malformed.string() + ":2:21", "\"&\" is not an operator"}));
  std::filesystem::remove(malformed);
  auto empty = directory.write("empty.s", "//llgo:build\n");
  EXPECT_TRUE(fails_with([&] { selected(query, directory); }, {empty.string() + ":1:13", "empty build constraint"}));
  std::filesystem::remove(empty);
  EXPECT_TRUE(selected(query, directory).empty());  // nothing left: nothing selected, no error
}

TEST(SourceSelection, MissingDirectoryIsAnError) {
  EXPECT_TRUE(fails_with(
      [] { select_runtime_sources(resolve_target(builtin_descriptors(), Query{}), "/nonexistent/llgo-wasm-runtime"); },
      {"/nonexistent/llgo-wasm-runtime: not a directory"}));
}

}  // namespace
}  // namespace llgo_wasm
