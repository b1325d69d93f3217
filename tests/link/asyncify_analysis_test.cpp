// The call-graph analysis that narrows Asyncify (driver/link/src/asyncify_analysis.cpp), on
// small modules written in the text format and assembled by wabt's wat2wasm (installed by the
// project's setup; the tests fail, never skip, without it).
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "link_test_support.hpp"
#include "llgo_wasm/asyncify_analysis.hpp"
#include "llgo_wasm/asyncify_narrowing.hpp"
#include "llgo_wasm/child_process.hpp"
#include "llgo_wasm/emscripten_asyncify.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"
#include "llgo_wasm/wasm_opt_discovery.hpp"

using namespace llgo_wasm;
namespace fs = std::filesystem;

namespace {

class AsyncifyAnalysisTest : public ::testing::Test {
 protected:
  void SetUp() override { scratch = link_test::make_scratch_directory("analysis"); }
  void TearDown() override { fs::remove_all(scratch); }

  // Assembles `wat` (with its $names in the name section) and reads it back.
  WasmModuleSummary assemble(const std::string& wat) {
    auto wat2wasm = find_on_path("wat2wasm", process_environment());
    if (!wat2wasm) {
      ADD_FAILURE() << "wat2wasm (wabt) not on PATH: run the project's toolchain setup";
      return {};
    }
    const fs::path source = scratch / "module.wat", binary = scratch / "module.wasm";
    link_test::write_text(source, wat);
    ChildResult run = run_child_process({*wat2wasm, "--debug-names", source.string(), "-o", binary.string()}, true);
    if (!run.succeeded()) {
      ADD_FAILURE() << run.describe_failure("wat2wasm") << "\n" << wat;
      return {};
    }
    module_path = binary;
    return read_wasm_module_file(binary.string());
  }

  static std::set<std::string> can_switch(const WasmModuleSummary& module, const AsyncifyAnalysisOptions& options = {}) {
    AsyncifyAnalysis analysis = analyse_asyncify(module, options);
    auto names = analysis.can_switch_names();
    return {names.begin(), names.end()};
  }

  fs::path scratch;
  fs::path module_path;
};

using Names = std::set<std::string>;

const char* const runtime_imports = R"(
  (import "asyncify" "start_unwind" (func $start_unwind (param i32)))
  (import "asyncify" "stop_unwind" (func $stop_unwind))
  (import "asyncify" "start_rewind" (func $start_rewind (param i32)))
  (import "asyncify" "stop_rewind" (func $stop_rewind))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (func $suspend (call $start_unwind (i32.const 0)))
)";

}  // namespace

TEST_F(AsyncifyAnalysisTest, DirectCallersOfTheSwitchAreFoundAndTheHostLoopIsNot) {
  auto module = assemble(std::string("(module") + runtime_imports + R"(
    (func $yield_twice (call $suspend) (call $suspend))
    (func $worker (call $yield_twice))
    (func $printer (drop (call $fd_write (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0))))
    (func $host_loop (call $start_rewind (i32.const 0)) (call $worker) (call $stop_unwind))
    (func $main (export "_start") (call $host_loop) (call $printer)))
  )");
  AsyncifyAnalysis analysis = analyse_asyncify(module, {});
  auto names = analysis.can_switch_names();
  EXPECT_EQ(Names(names.begin(), names.end()), (Names{"suspend", "yield_twice", "worker"}));
  ASSERT_EQ(analysis.start_switch.size(), 1u);  // suspend starts the switch: listed, not instrumented
  EXPECT_EQ(analysis.binaryen_names[analysis.start_switch[0]], "suspend");
  auto removable = analysis.removable_names();
  // The host loop (bottom-most runtime) and everything that only reaches WASI are non-switching.
  EXPECT_EQ(Names(removable.begin(), removable.end()), (Names{"printer", "host_loop", "main"}));
  EXPECT_FALSE(analysis.instruments_nothing());
}

TEST_F(AsyncifyAnalysisTest, AFunctionReachingTheSwitchOnlyThroughAPointerIsKept) {
  auto module = assemble(std::string("(module") + runtime_imports + R"(
    (type $v_i (func (param i32)))
    (type $v_i_again (func (param i32)))
    (type $i_i (func (param i32) (result i32)))
    (table 4 funcref)
    (elem (i32.const 1) $goroutine_entry $plain_callback)
    (func $goroutine_entry (type $v_i) (call $suspend))
    (func $plain_callback (type $i_i) (local.get 0))
    (func $not_in_any_table (type $v_i) (call $suspend))
    (func $call_v_i (param i32) (call_indirect (type $v_i_again) (i32.const 0) (local.get 0)))
    (func $call_i_i (param i32) (result i32) (call_indirect (type $i_i) (i32.const 0) (local.get 0)))
    (func $spawn (export "_start") (call $call_v_i (i32.const 1)) (drop (call $call_i_i (i32.const 2)))))
  )");
  // call_v_i reaches goroutine_entry only through the table (its type is another index with the
  // same signature); call_i_i's signature matches no switching function.
  EXPECT_EQ(can_switch(module), (Names{"suspend", "goroutine_entry", "not_in_any_table", "call_v_i", "spawn"}));
}

TEST_F(AsyncifyAnalysisTest, ReferencesMadeAtRunTimeCount) {
  const std::string body = std::string("(module") + runtime_imports + R"(
    (type $v_i (func (param i32)))
    (table $t 2 funcref)
    (func $escapes (type $v_i) (call $suspend))
    (func $caller (call_indirect (type $v_i) (i32.const 0) (i32.const 0)))
  )";
  // Without any reference to $escapes, the indirect call cannot reach it.
  EXPECT_EQ(can_switch(assemble(body + ")")), (Names{"suspend", "escapes"}));
  // table.set of a ref.func (declared by a declarative segment) makes it reachable.
  EXPECT_EQ(can_switch(assemble(body + R"(
    (elem declare func $escapes)
    (func $install (table.set $t (i32.const 0) (ref.func $escapes))))
  )")), (Names{"suspend", "escapes", "caller"}));
  // So does a ref.func in a global initialiser, and table.grow with it.
  EXPECT_EQ(can_switch(assemble(body + R"(
    (global $g funcref (ref.func $escapes))
    (func $grow (drop (table.grow $t (global.get $g) (i32.const 1)))))
  )")), (Names{"suspend", "escapes", "caller"}));
  // A table the host can write makes every export a possible target.
  EXPECT_EQ(can_switch(assemble(body + R"(
    (export "table" (table $t))
    (export "callback" (func $escapes)))
  )")), (Names{"suspend", "escapes", "caller"}));
  EXPECT_EQ(can_switch(assemble(body + R"(
    (export "callback" (func $escapes)))
  )")), (Names{"suspend", "escapes"}));
}

TEST_F(AsyncifyAnalysisTest, EmscriptenAsyncImportsAndInvokes) {
  auto module = assemble(R"((module
    (type $v_i (func (param i32)))
    (import "env" "emscripten_fiber_swap" (func $swap (param i32 i32)))
    (import "env" "invoke_vi" (func $invoke_vi (param i32 i32)))
    (import "env" "emscripten_date_now" (func $now (result f64)))
    (table 2 funcref)
    (elem (i32.const 1) $fiber_body)
    (func $fiber_body (type $v_i) (call $swap (i32.const 0) (i32.const 0)))
    (func $clock (drop (call $now)))
    (func $with_setjmp (call $invoke_vi (i32.const 1) (i32.const 0))))
  )");
  AsyncifyAnalysisOptions emscripten{{"env.invoke_*", "*.emscripten_fiber_swap", "env.__asyncjs__*"}, {"env.invoke_*"}};
  EXPECT_EQ(can_switch(module, emscripten), (Names{"fiber_body", "with_setjmp"}));
  // The switch points the module calls, by name (an invoke only calls the table: it switches
  // through the function it calls).
  EXPECT_EQ(analyse_asyncify(module, emscripten).switch_imports_called,
            std::vector<std::string>{"env.emscripten_fiber_swap"});
  // Without the fiber switch among the escaped functions, an invoke cannot switch.
  AsyncifyAnalysisOptions no_fibers{{"env.invoke_*"}, {"env.invoke_*"}};
  EXPECT_EQ(can_switch(module, no_fibers), Names{});
  EXPECT_TRUE(analyse_asyncify(module, no_fibers).instruments_nothing());
}

// What emcc links with -sASYNCIFY=1 (DYNCALLS=1): the table is exported, and so is one
// dynCall_<sig> per table signature, which calls the table entry it is given; each has one more
// parameter than the signatures it calls, so dynCall_vi has the signature of stdio's write-like
// callbacks (here $write, called by $fwrite).
const char* const emscripten_dyncall_module = R"((module
    (type $v_i (func (param i32)))
    (type $v_ii (func (param i32 i32)))
    (import "asyncify" "start_unwind" (func $start_unwind (param i32)))
    (import "asyncify" "stop_unwind" (func $stop_unwind))
    (import "asyncify" "start_rewind" (func $start_rewind (param i32)))
    (import "asyncify" "stop_rewind" (func $stop_rewind))
    (table $t 3 3 funcref)
    (export "__indirect_function_table" (table $t))
    (elem (i32.const 1) $goroutine_entry $write)
    (func $suspend (call $start_unwind (i32.const 0)))
    (func $goroutine_entry (type $v_i) (call $suspend))
    (func $write (type $v_ii))
    (func $fwrite (param i32) (call_indirect (type $v_ii) (local.get 0) (i32.const 0) (i32.const 2)))
    (func $spawn (param i32) (call_indirect (type $v_i) (local.get 0) (i32.const 1)))
    (func $exported_yield (export "exported_yield") (param i32 i32) (call $suspend))
    (func $dynCall_vi (export "dynCall_vi") (param i32 i32) (call_indirect (type $v_i) (local.get 1) (local.get 0)))
    (func $main (export "main") (call $fwrite (i32.const 0)) (call $spawn (i32.const 1))))
)";

TEST_F(AsyncifyAnalysisTest, ExportsTheHostOnlyHoldsWrappersOfDoNotEscape) {
  WasmModuleSummary module = assemble(emscripten_dyncall_module);
  // Any host that can write the exported table might store dynCall_vi or exported_yield in it:
  // then stdio's $fwrite could call them, and it and $main switch.
  EXPECT_EQ(can_switch(module), (Names{"suspend", "goroutine_entry", "spawn", "exported_yield", "dynCall_vi", "fwrite", "main"}));
  // Emscripten's Asyncify glue hands JavaScript only wrappers of the exports: what it stores in
  // the table is host code, and an export escapes only through the module's own references.
  AsyncifyAnalysisOptions wrapped;
  wrapped.host_holds_only_export_wrappers = true;
  // Everything that can still switch is kept: the switching export itself (the host calls
  // it), the trampoline the host calls with a goroutine entry, the entry reached only through
  // the table, and its callers through the table.
  EXPECT_EQ(can_switch(module, wrapped), (Names{"suspend", "goroutine_entry", "spawn", "exported_yield", "dynCall_vi", "main"}));
}

TEST_F(AsyncifyAnalysisTest, AnExportInTheModulesOwnTableStillEscapesUnderWrappers) {
  // exported_yield is also in an element segment: a reference the module made itself, which a
  // call_indirect of its signature can reach whatever the host holds.
  WasmModuleSummary module = assemble(R"((module
    (type $v_ii (func (param i32 i32)))
    (import "asyncify" "start_unwind" (func $start_unwind (param i32)))
    (table $t 2 2 funcref)
    (export "__indirect_function_table" (table $t))
    (elem (i32.const 1) $exported_yield)
    (func $exported_yield (export "exported_yield") (type $v_ii) (call $start_unwind (i32.const 0)))
    (func $fwrite (param i32) (call_indirect (type $v_ii) (local.get 0) (i32.const 0) (i32.const 1))))
  )");
  AsyncifyAnalysisOptions wrapped;
  wrapped.host_holds_only_export_wrappers = true;
  EXPECT_EQ(can_switch(module, wrapped), (Names{"exported_yield", "fwrite"}));
}

TEST_F(AsyncifyAnalysisTest, TheEmscriptenShimTreatsExportsAsWrapped) {
  // The shim as emcc runs it (--asyncify, emcc's async imports), with a stand-in for the real
  // wasm-opt: its report must not count stdio's $fwrite, reached only through a dynCall export.
  assemble(emscripten_dyncall_module);
  const fs::path report = scratch / "report.json", out = scratch / "out.wasm";
  const int status = run_emscripten_wasm_opt_shim(
      {"/bin/true", report.string(), "-O2", "--asyncify",
       "--pass-arg=asyncify-imports@env.invoke_*,*.emscripten_fiber_swap", module_path.string(), "-o", out.string()});
  EXPECT_EQ(status, 0);
  auto read = read_asyncify_report(report.string());
  ASSERT_TRUE(read.has_value());
  ASSERT_TRUE(read->analysed) << read->fallback_reason;
  EXPECT_EQ(Names(read->can_switch_names.begin(), read->can_switch_names.end()),
            (Names{"suspend", "goroutine_entry", "spawn", "exported_yield", "dynCall_vi", "main"}));
  auto list = link_test::read_file(fs::path(report.string() + ".list"));
  EXPECT_NE(std::string(list.begin(), list.end()).find("fwrite\n"), std::string::npos);
}

TEST_F(AsyncifyAnalysisTest, TheEmscriptenShimKeepsEmccsArgumentsInPlace) {
  // emcc's own order (-sASYNCIFY_REMOVE from the descriptor arrives as a removelist after the
  // imports): the shim swaps the removelist for its file and puts --no-inline=<name> first, and
  // every other argument reaches the real wasm-opt unchanged. Inserting first once shifted the
  // removelist's index onto its neighbour: with one name emcc's asyncify-imports were lost (every
  // import could switch), with three --asyncify itself (the imports were never replaced).
  assemble(emscripten_dyncall_module);
  const fs::path report = scratch / "report.json", out = scratch / "out.wasm", seen = scratch / "seen.txt";
  const fs::path stand_in = scratch / "wasm-opt";
  {
    std::ofstream script(stand_in);
    script << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" << seen.string() << "'\n";
  }
  fs::permissions(stand_in, fs::perms::owner_all);
  const std::vector<std::string> emcc = {"--strip-target-features", "-O2", "--asyncify",
                                         "--pass-arg=asyncify-propagate-addlist",
                                         "--pass-arg=asyncify-imports@env.invoke_*,*.emscripten_fiber_swap",
                                         "--pass-arg=asyncify-removelist@llgo_fatal", module_path.string(), "-o", out.string()};
  std::vector<std::string> shim = {stand_in.string(), report.string()};
  shim.insert(shim.end(), emcc.begin(), emcc.end());
  ASSERT_EQ(run_emscripten_wasm_opt_shim(shim), 0);
  auto text = link_test::read_file(seen);
  std::vector<std::string> passed;
  std::istringstream lines(std::string(text.begin(), text.end()));
  for (std::string line; std::getline(lines, line);) passed.push_back(line);
  std::vector<std::string> expected = {"--no-inline=suspend"};
  expected.insert(expected.end(), emcc.begin(), emcc.end());
  expected[6] = "--pass-arg=asyncify-removelist@@" + report.string() + ".list";
  EXPECT_EQ(passed, expected);
  auto list = link_test::read_file(fs::path(report.string() + ".list"));
  EXPECT_EQ(std::string(list.begin(), list.end()).rfind("llgo_fatal\n", 0), 0u) << "emcc's names come first";
}

TEST_F(AsyncifyAnalysisTest, NarrowingArgumentsForAProgramThatCannotSwitch) {
  assemble(R"((module
    (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
    (table 1 funcref) (elem (i32.const 0) $main)
    (func $main (export "_start") (drop (call $fd_write (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0))))))");
  std::vector<std::string> arguments = {"stale"};
  auto report = plan_asyncify_arguments(module_path.string(), {{"asyncify.start_unwind", "asyncify.stop_rewind"}, {}},
                                        (scratch / "list").string(), arguments);
  EXPECT_TRUE(report.analysed) << report.fallback_reason;
  EXPECT_FALSE(report.asyncify_needed);
  EXPECT_TRUE(arguments.empty()) << "a program that cannot switch gets no Asyncify pass";
  EXPECT_NE(report.summary().find("no Asyncify pass"), std::string::npos) << report.summary();
}

TEST_F(AsyncifyAnalysisTest, NarrowingArgumentsListTheNonSwitchingFunctions) {
  assemble(std::string("(module") + runtime_imports + R"(
    (func $worker (call $suspend))
    (func $other (nop))
    (func $main (export "_start") (call $worker)))
  )");
  std::vector<std::string> arguments;
  const fs::path list = scratch / "list";
  auto report = plan_asyncify_arguments(module_path.string(), {{"asyncify.start_unwind", "asyncify.stop_rewind"}, {}},
                                        list.string(), arguments);
  ASSERT_TRUE(report.analysed) << report.fallback_reason;
  EXPECT_EQ(report.can_switch, 3u);
  EXPECT_EQ(report.start_switch, 1u);
  EXPECT_EQ(arguments, (std::vector<std::string>{"--asyncify",
                                                 "--pass-arg=asyncify-imports@asyncify.start_unwind,asyncify.stop_rewind",
                                                 "--pass-arg=asyncify-removelist@@" + list.string()}));
  auto text = link_test::read_file(list);
  EXPECT_EQ(std::string(text.begin(), text.end()), "other\n");
  // -v names the switch points the program calls (stop_rewind is imported but never called).
  EXPECT_EQ(report.switch_imports_called, std::vector<std::string>{"asyncify.start_unwind"});
  EXPECT_NE(report.summary().find("; switch points called: asyncify.start_unwind"), std::string::npos)
      << report.summary();
}

TEST_F(AsyncifyAnalysisTest, DeclaredNonSwitchingFunctionsStopTheWalkAndAreListedFirst) {
  // $print reaches an indirect call whose signature a switching goroutine entry shares, as
  // vfprintf reaches stdio's FILE callbacks: only a declaration (the descriptor's
  // asyncify-removelist) can say it never switches, and then its caller does not either.
  assemble(std::string("(module") + runtime_imports + R"(
    (type $v_i (func (param i32)))
    (table 2 funcref)
    (elem (i32.const 1) $goroutine_entry)
    (func $goroutine_entry (type $v_i) (call $suspend))
    (func $print (param i32) (call_indirect (type $v_i) (i32.const 0) (local.get 0)))
    (func $fatal (call $print (i32.const 1)))
    (func $main (export "_start") (call $fatal)))
  )");
  WasmModuleSummary module = read_wasm_module_file(module_path.string());
  EXPECT_EQ(can_switch(module), (Names{"suspend", "goroutine_entry", "print", "fatal", "main"}));
  EXPECT_EQ(can_switch(module, {{}, {}, {"pri*"}}), (Names{"suspend", "goroutine_entry"}));

  std::vector<std::string> arguments;
  const fs::path list = scratch / "list";
  auto report = plan_asyncify_arguments(module_path.string(), {{"asyncify.start_unwind", "asyncify.stop_rewind"}, {}, {"pri*"}},
                                        list.string(), arguments);
  ASSERT_TRUE(report.analysed) << report.fallback_reason;
  EXPECT_EQ(arguments.back(), "--pass-arg=asyncify-removelist@@" + list.string());
  auto text = link_test::read_file(list);
  EXPECT_EQ(std::string(text.begin(), text.end()), "pri*\nprint\nfatal\nmain\n");

  // When the module cannot be read, Binaryen still gets the declared names.
  link_test::write_text(scratch / "broken.wasm", "not wasm");
  report = plan_asyncify_arguments((scratch / "broken.wasm").string(), {{"asyncify.start_unwind"}, {}, {"a", "b"}},
                                   list.string(), arguments);
  EXPECT_FALSE(report.analysed);
  EXPECT_EQ(arguments.back(), "--pass-arg=asyncify-removelist@a,b");
}

TEST_F(AsyncifyAnalysisTest, AnUnreadableModuleFallsBackToBinaryensOwnAnalysis) {
  link_test::write_text(scratch / "broken.wasm", "not wasm");
  std::vector<std::string> arguments;
  auto report = plan_asyncify_arguments((scratch / "broken.wasm").string(), {{"asyncify.start_unwind"}, {}},
                                        (scratch / "list").string(), arguments);
  EXPECT_FALSE(report.analysed);
  EXPECT_NE(report.fallback_reason.find("cannot read"), std::string::npos);
  EXPECT_EQ(arguments, (std::vector<std::string>{"--asyncify", "--pass-arg=asyncify-imports@asyncify.start_unwind"}));

  WasmModuleSummary gc;
  gc.has_non_function_types = true;
  EXPECT_THROW(analyse_asyncify(gc, {}), AsyncifyAnalysisError);
}

TEST(BinaryenFunctionNames, OnlyNamesBinaryenKeepsVerbatimAreListed) {
  WasmModuleSummary module;
  module.imported_function_count = 1;
  module.defined_function_count = 7;
  module.function_names = {{0, "fimport"},       {1, "plain_name.1"}, {2, "twice"},     {3, "twice"},
                           {4, "twice_1"},       {5, "has,comma"},    {6, "wild*card"}};  // 7 has no name
  auto names = binaryen_function_names(module);
  ASSERT_EQ(names.size(), 8u);
  EXPECT_EQ(names[1], "plain_name.1");
  EXPECT_EQ(names[2], "");  // repeated: Binaryen renames one of them
  EXPECT_EQ(names[3], "");
  EXPECT_EQ(names[4], "");  // could be what Binaryen renames a "twice" to
  EXPECT_EQ(names[5], "");  // a comma splits Binaryen's lists
  EXPECT_EQ(names[6], "");  // '*' is a wildcard there
  EXPECT_EQ(names[7], "");  // unnamed: Binaryen numbers it
}

TEST(BinaryenFunctionNames, AModuleWithoutNamesGetsBinaryensNumbers) {
  WasmModuleSummary module;  // e.g. what emcc's wasm-emscripten-finalize leaves
  module.imported_function_count = 2;
  module.defined_function_count = 3;
  EXPECT_EQ(binaryen_function_names(module), (std::vector<std::string>{"", "", "0", "1", "2"}));
}

TEST(AsyncifyPattern, MatchesLikeBinaryen) {
  EXPECT_TRUE(asyncify_pattern_matches("env.invoke_*", "env.invoke_vii"));
  EXPECT_TRUE(asyncify_pattern_matches("*.emscripten_sleep", "env.emscripten_sleep"));
  EXPECT_TRUE(asyncify_pattern_matches("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(asyncify_pattern_matches("a*b*c", "aXXbYY"));
  EXPECT_FALSE(asyncify_pattern_matches("env.invoke_*", "env.invok"));
  EXPECT_TRUE(asyncify_pattern_matches("exact", "exact"));
  EXPECT_FALSE(asyncify_pattern_matches("exact", "exact2"));
}
