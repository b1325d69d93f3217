// LinkPlan and argument parsing: CMake-style link lines, -O stripping, the fixed
// asyncify-then-exnref order, narrowing flags, and the step lists of each output kind.
#include <algorithm>

#include <gtest/gtest.h>

#include "link_test_support.hpp"
#include "llgo_wasm/asyncify_narrowing.hpp"
#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/link_plan.hpp"

using namespace llgo_wasm;

namespace {

using link_test::resolved_p1;
ResolvedTarget resolved_p1t() { return link_test::resolve_target_named("wasip1-threads"); }
ResolvedTarget resolved_stack_switching() { return link_test::resolve_target_named("wasip1-stack-switching"); }

LinkToolchain tools() {
  LinkToolchain toolchain;
  toolchain.compiler = "/opt/clang";
  toolchain.archiver = "/opt/llvm-ar";
  toolchain.wasm_opt = "/opt/wasm-opt";
  return toolchain;
}
TemporaryNaming naming() { return {4242, "abc123"}; }

bool contains(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

long index_of(const std::vector<std::string>& words, const std::string& word) {
  auto found = std::find(words.begin(), words.end(), word);
  return found == words.end() ? -1 : found - words.begin();
}

}  // namespace

TEST(LinkArguments, AcceptsACMakeLinkLine) {
  auto parsed = parse_link_arguments({"--cc", "/usr/bin/clang-19", "-O2", "-g", "-mllvm", "-wasm-enable-sjlj",
                                      "CMakeFiles/app.dir/main.c.o", "-o", "bin/app.wasm", "-Wl,--stack-first",
                                      "-L", "lib", "-lruntime", "libextra.a", "-Xlinker", "--no-entry"});
  EXPECT_EQ(parsed.output_path, "bin/app.wasm");
  EXPECT_EQ(*parsed.compiler, "/usr/bin/clang-19");
  EXPECT_EQ(parsed.inputs, (std::vector<std::string>{"CMakeFiles/app.dir/main.c.o", "libextra.a"}));
  EXPECT_EQ(parsed.stripped_optimization_flags, std::vector<std::string>{"-O2"});
  EXPECT_EQ(parsed.link_line,
            (std::vector<std::string>{"-g", "-mllvm", "-wasm-enable-sjlj", "CMakeFiles/app.dir/main.c.o",
                                      "-Wl,--stack-first", "-L", "lib", "-lruntime", "libextra.a", "-Xlinker", "--no-entry"}));
}

TEST(LinkArguments, DriverOptionsAndExtraArgs) {
  auto parsed = parse_link_arguments({"--dry-run", "--json", "-v", "--kind=shared", "--no-asyncify-narrowing",
                                      "--asyncify-import", "env.sleep", "-oout.so", "a.o", "--", "--target=wasm32-wasi", "-O3"});
  EXPECT_TRUE(parsed.dry_run);
  EXPECT_TRUE(parsed.json);
  EXPECT_TRUE(parsed.verbose);
  EXPECT_EQ(parsed.kind, LinkOutputKind::shared);
  EXPECT_EQ(parsed.asyncify, AsyncifyInstrumentation::wide);
  EXPECT_EQ(parsed.asyncify_imports, std::vector<std::string>{"env.sleep"});
  EXPECT_EQ(parsed.output_path, "out.so");
  EXPECT_EQ(parsed.link_line, (std::vector<std::string>{"a.o", "--target=wasm32-wasi"}));
  EXPECT_EQ(parsed.stripped_optimization_flags, std::vector<std::string>{"-O3"});
}

TEST(LinkArguments, RejectsBadInput) {
  EXPECT_THROW(parse_link_arguments({"a.o"}), LinkUsageError);                 // no -o
  EXPECT_THROW(parse_link_arguments({"-o", "x", "-o", "y"}), LinkUsageError);  // two outputs
  EXPECT_THROW(parse_link_arguments({"--kind", "bundle", "-o", "x"}), LinkUsageError);
  EXPECT_THROW(parse_link_arguments({"-o"}), LinkUsageError);
  EXPECT_THROW(parse_link_arguments({"--kind", "archive", "-o", "x.a"}), LinkUsageError);  // nothing to archive
}

TEST(LinkArguments, RecognisesEveryOptimizationSpelling) {
  for (const char* flag : {"-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz", "-Og", "-Ofast"}) {
    EXPECT_TRUE(is_optimization_flag(flag)) << flag;
  }
  for (const char* flag : {"-o", "-Wl,-O2", "-OO", "-Obad", "-fno-omit-frame-pointer"}) {
    EXPECT_FALSE(is_optimization_flag(flag)) << flag;
  }
}

TEST(LinkPlan, P1ExecutableAnalysesThenRunsAsyncifyThenExnrefThenValidatesAndPublishes) {
  auto arguments = parse_link_arguments({"main.o", "-O2", "-o", "out/app.wasm", "-lm"});
  LinkPlan full_plan = build_link_plan(resolved_p1(), arguments, tools(), naming());
  ASSERT_EQ(full_plan.steps.size(), 6u);
  EXPECT_EQ(full_plan.steps[0].name, "link");
  // The stack check rewrites the linked module before anything else reads it (stack_check.hpp).
  EXPECT_EQ(full_plan.steps[1].kind, LinkStepKind::add_stack_check);
  const std::string checked = "out/.app.wasm.checked.4242.abc123.tmp";
  EXPECT_EQ(full_plan.steps[1].inputs, std::vector<std::string>{"out/.app.wasm.core.4242.abc123.tmp"});
  EXPECT_EQ(full_plan.steps[1].outputs, std::vector<std::string>{checked});
  // The rest of the plan reads the checked module; seen without the step, as --stack-check off plans.
  LinkPlan plan = full_plan;
  plan.steps.erase(plan.steps.begin() + 1);
  EXPECT_EQ(plan.steps[0].name, "link");
  EXPECT_EQ(plan.steps[1].kind, LinkStepKind::analyse_asyncify);
  EXPECT_EQ(plan.steps[2].name, "asyncify+exnref");
  EXPECT_EQ(plan.steps[3].kind, LinkStepKind::validate_module);
  EXPECT_EQ(plan.steps[4].kind, LinkStepKind::publish_output);

  const auto& clang = plan.steps[0].command;
  EXPECT_EQ(clang.front(), "/opt/clang");
  EXPECT_TRUE(contains(clang, "--target=wasm32-unknown-wasip1"));
  for (const auto& word : clang) EXPECT_FALSE(is_optimization_flag(word)) << "clang link line carries " << word;
  const std::string core = "out/.app.wasm.core.4242.abc123.tmp";
  const std::string final_module = "out/.app.wasm.final.4242.abc123.tmp";
  EXPECT_EQ(clang.back(), core);
  EXPECT_LT(index_of(clang, "main.o"), index_of(clang, "-lm"));

  // The analysis reads the core module and decides the Asyncify arguments of the next step.
  const std::string arguments_file = "out/.app.wasm.asyncify-args.4242.abc123.tmp";
  const std::string list_file = "out/.app.wasm.asyncify-list.4242.abc123.tmp";
  EXPECT_EQ(plan.steps[1].inputs, std::vector<std::string>{checked});
  EXPECT_EQ(plan.steps[1].outputs, (std::vector<std::string>{arguments_file, list_file}));
  ASSERT_TRUE(plan.steps[1].narrowing.has_value());
  EXPECT_EQ(plan.steps[1].narrowing->switch_imports,
            (std::vector<std::string>{"asyncify.start_unwind", "asyncify.stop_rewind"}));
  // The descriptor's declared non-switching functions go to the analysis (which lists them).
  EXPECT_FALSE(resolved_p1().spec.asyncify_removelist.empty());
  EXPECT_EQ(plan.steps[1].narrowing->never_switch, chosen_asyncify_removelist(resolved_p1().spec));
  EXPECT_GT(plan.steps[1].narrowing->never_switch.size(), resolved_p1().spec.asyncify_removelist.size())
      << "the raw asyncify backend's host loop (context-asyncify-removelist) is declared too";

  const auto& opt = plan.steps[2].command;
  EXPECT_EQ(opt.front(), "/opt/wasm-opt");
  EXPECT_EQ(opt[1], checked);
  ASSERT_EQ(plan.steps[2].arguments_file, arguments_file);
  // The decided arguments (--asyncify ...) go before -O2: Asyncify instruments the module the
  // analysis read, and the optimiser runs after it.
  EXPECT_EQ(plan.steps[2].arguments_insert_at, static_cast<size_t>(index_of(opt, "-O2")));
  ASSERT_GE(index_of(opt, "--translate-to-exnref"), 0);
  EXPECT_LT(index_of(opt, "-O2"), index_of(opt, "--translate-to-exnref"));
  EXPECT_TRUE(contains(opt, "-O2"));  // the stripped level reaches the pinned wasm-opt
  EXPECT_TRUE(contains(opt, "--enable-exception-handling"));
  EXPECT_EQ(opt.back(), final_module);

  ASSERT_TRUE(plan.steps[3].expectations.has_value());
  EXPECT_TRUE(plan.steps[3].expectations->forbid_legacy_exceptions);
  EXPECT_TRUE(plan.steps[3].expectations->forbid_shared_memory);
  EXPECT_EQ(plan.steps[3].inputs.front(), final_module);
  EXPECT_EQ(plan.steps[4].inputs.front(), final_module);
  EXPECT_EQ(plan.steps[4].outputs.front(), "out/app.wasm");
  EXPECT_EQ(plan.temporaries, (std::vector<std::string>{core, checked, final_module, arguments_file, list_file}));
  std::string text = format_link_plan_text(plan);
  EXPECT_NE(text.find("removed -O2 from the link line"), std::string::npos) << text;
}

TEST(LinkPlan, DebugInformationOnlyWhenTheLinkLineAsksForIt) {
  EXPECT_FALSE(link_line_keeps_debug_info({"a.o", "-lm"}));
  EXPECT_TRUE(link_line_keeps_debug_info({"-g", "a.o"}));
  EXPECT_TRUE(link_line_keeps_debug_info({"-gdwarf-4"}));
  EXPECT_FALSE(link_line_keeps_debug_info({"-g", "-g0"}));  // the last one decides, as for clang
  EXPECT_TRUE(link_line_keeps_debug_info({"-g0", "-g2"}));
  EXPECT_FALSE(link_line_keeps_debug_info({"-gno-column-info", "-gz"}));  // modifiers ask for nothing

  // Release (no -g): the libraries' DWARF is left out at the link, and wasm-opt gets no -g.
  auto release = build_link_plan(resolved_p1(), parse_link_arguments({"main.o", "-O2", "-o", "app.wasm"}), tools(), naming());
  EXPECT_TRUE(contains(release.steps[0].command, "-Wl,--strip-debug"));
  EXPECT_FALSE(contains(release.steps[3].command, "-g"));
  // Debug: DWARF kept, and Binaryen rewrites it for the code it changes.
  auto debug = build_link_plan(resolved_p1(), parse_link_arguments({"main.o", "-O0", "-g", "-o", "app.wasm"}), tools(), naming());
  EXPECT_FALSE(contains(debug.steps[0].command, "-Wl,--strip-debug"));
  EXPECT_TRUE(contains(debug.steps[3].command, "-g"));
  // P1T (its wasm-opt step only translates exceptions): no DWARF without -g either.
  auto threads = build_link_plan(resolved_p1t(), parse_link_arguments({"main.o", "-o", "app.wasm"}), tools(), naming());
  EXPECT_TRUE(contains(threads.steps[0].command, "-Wl,--strip-debug"));
  EXPECT_FALSE(contains(threads.steps[2].command, "-g"));
  // Archives are not linked.
  auto archive = build_link_plan(resolved_p1(), parse_link_arguments({"--kind", "archive", "a.o", "-o", "a.a"}), tools(), naming());
  EXPECT_FALSE(contains(archive.steps[0].command, "-Wl,--strip-debug"));
}

TEST(LinkPlan, NarrowingCanBeTurnedOffAndExtended) {
  auto wide = build_link_plan(resolved_p1(), parse_link_arguments({"a.o", "-o", "a.wasm", "--no-asyncify-narrowing"}), tools(), naming());
  ASSERT_EQ(wide.steps.size(), 5u);  // link, stack-check, wasm-opt, validate, publish: no analysis
  for (const auto& word : wide.steps[2].command) EXPECT_EQ(word.find("asyncify-imports"), std::string::npos) << word;
  EXPECT_TRUE(contains(wide.steps[2].command, "--asyncify"));
  EXPECT_FALSE(wide.steps[2].arguments_file.has_value());
  // Wide Asyncify keeps the descriptor's declared non-switching functions out too.
  EXPECT_TRUE(contains(wide.steps[2].command, asyncify_removelist_argument(chosen_asyncify_removelist(resolved_p1().spec))));

  auto none = build_link_plan(resolved_p1(), parse_link_arguments({"a.o", "-o", "a.wasm", "--asyncify", "none"}), tools(), naming());
  ASSERT_EQ(none.steps.size(), 5u);
  for (const auto& word : none.steps[2].command) EXPECT_EQ(word.find("asyncify"), std::string::npos) << word;
  EXPECT_THROW(parse_link_arguments({"a.o", "-o", "a.wasm", "--asyncify", "some"}), LinkUsageError);

  // A descriptor may name host imports that switch; the command line may add more.
  auto scratch = link_test::make_scratch_directory("narrowing");
  link_test::write_text(scratch / "host-yield.json",
                        R"({"name": "host-yield", "inherits": "wasip1", "asyncify-imports": ["env.host_yield"]})");
  auto target = link_test::resolve_target_named((scratch / "host-yield.json").string());
  auto extended = build_link_plan(target, parse_link_arguments({"a.o", "-o", "a.wasm", "--asyncify-import", "env.other"}), tools(), naming());
  ASSERT_TRUE(extended.steps[2].narrowing.has_value());
  EXPECT_EQ(extended.steps[2].narrowing->switch_imports,
            (std::vector<std::string>{"asyncify.start_unwind", "asyncify.stop_rewind", "env.host_yield", "env.other"}));
  link_test::fs::remove_all(scratch);
}

TEST(LinkPlan, SysrootDecidesTheTripleSpellingAndAddsLibsetjmp) {
  auto scratch = link_test::make_scratch_directory("sysroot");
  link_test::fs::create_directories(scratch / "lib" / "wasm32-wasi");
  link_test::write_text(scratch / "lib" / "wasm32-wasi" / "libsetjmp.a", "!<arch>\n");
  LinkToolchain with_sysroot = tools();
  with_sysroot.sysroot = scratch.string();
  auto plan = build_link_plan(resolved_p1(), parse_link_arguments({"a.o", "-o", "a.wasm"}), with_sysroot, naming());
  const auto& clang = plan.steps[0].command;
  EXPECT_TRUE(contains(clang, "--target=wasm32-wasi"));
  EXPECT_TRUE(contains(clang, "--sysroot=" + scratch.string()));
  EXPECT_TRUE(contains(clang, "-lsetjmp"));

  // With both spellings, plain clang-19 gets wasm32-wasi; a -resource-dir shim keeps wasip1.
  link_test::fs::create_directories(scratch / "lib" / "wasm32-wasip1");
  auto plain = build_link_plan(resolved_p1(), parse_link_arguments({"a.o", "-o", "a.wasm"}), with_sysroot, naming());
  EXPECT_TRUE(contains(plain.steps[0].command, "--target=wasm32-wasi"));
  auto shimmed = build_link_plan(resolved_p1(), parse_link_arguments({"-resource-dir", "/rt", "a.o", "-o", "a.wasm"}), with_sysroot, naming());
  EXPECT_TRUE(contains(shimmed.steps[0].command, "--target=wasm32-unknown-wasip1") ||
              contains(shimmed.steps[0].command, "--target=wasm32-wasip1"));
  EXPECT_TRUE(contains(shimmed.steps[0].command, "/rt"));
  

  // A target or sysroot on the link line (CMake's CMAKE_C_COMPILER_TARGET / CMAKE_SYSROOT) wins.
  auto own = build_link_plan(resolved_p1(), parse_link_arguments({"--target=wasm32-wasi", "a.o", "-o", "a.wasm"}), tools(), naming());
  EXPECT_EQ(std::count_if(own.steps[0].command.begin(), own.steps[0].command.end(),
                          [](const std::string& w) { return w.rfind("--target", 0) == 0; }), 1);
  link_test::fs::remove_all(scratch);
}

TEST(LinkPlan, ArchivesAndSharedLibrariesHaveNoPostLinkSteps) {
  auto archive = build_link_plan(resolved_p1(), parse_link_arguments({"--kind", "archive", "a.o", "b.o", "-o", "libx.a"}), tools(), naming());
  ASSERT_EQ(archive.steps.size(), 2u);
  EXPECT_EQ(archive.steps[0].command, (std::vector<std::string>{"/opt/llvm-ar", "rcs", ".libx.a.ar.4242.abc123.tmp", "a.o", "b.o"}));
  EXPECT_EQ(archive.steps[1].kind, LinkStepKind::publish_output);

  auto shared = build_link_plan(resolved_p1(), parse_link_arguments({"--kind", "shared", "a.o", "-o", "libx.so"}), tools(), naming());
  ASSERT_EQ(shared.steps.size(), 2u);
  EXPECT_TRUE(contains(shared.steps[0].command, "-shared"));
  for (const auto& step : shared.steps) EXPECT_NE(step.name, "asyncify+exnref");
}

// P1T has no Asyncify, yet its published module holds standard exnref, as every final module does:
// one wasm-opt step translates LLVM 19's legacy EH, and the check refuses any legacy left.
TEST(LinkPlan, P1TTranslatesToExnrefWithoutAsyncifyAndChecksSharedMemory) {
  auto checked_plan = build_link_plan(resolved_p1t(), parse_link_arguments({"a.o", "-o", "a.wasm"}), tools(), naming());
  ASSERT_EQ(checked_plan.steps.size(), 5u);
  EXPECT_EQ(checked_plan.steps[1].kind, LinkStepKind::add_stack_check) << "goroutine threads are checked too";
  auto plan = build_link_plan(resolved_p1t(), parse_link_arguments({"a.o", "--stack-check", "off", "-o", "a.wasm"}), tools(), naming());
  ASSERT_EQ(plan.steps.size(), 4u);
  EXPECT_EQ(plan.steps[0].name, "link");
  EXPECT_TRUE(contains(plan.steps[0].command, "-pthread"));
  EXPECT_EQ(plan.steps[1].name, "wasm-opt+exnref");
  const auto& opt = plan.steps[1].command;
  EXPECT_EQ(opt.front(), tools().wasm_opt);
  EXPECT_TRUE(contains(opt, "--enable-exception-handling"));
  ASSERT_TRUE(contains(opt, "--translate-to-exnref"));
  EXPECT_EQ(opt[opt.size() - 3], "--translate-to-exnref") << "last, as on P1";
  for (const auto& word : opt) EXPECT_EQ(word.find("asyncify"), std::string::npos) << "no Asyncify: " << word;
  ASSERT_TRUE(plan.steps[2].expectations.has_value());
  EXPECT_TRUE(plan.steps[2].expectations->require_shared_memory);
  EXPECT_TRUE(plan.steps[2].expectations->forbid_legacy_exceptions);
  EXPECT_EQ(plan.steps[3].name, "publish");
}

TEST(LinkPlan, StackSwitchingMergesTheGlueAndRunsNoAsyncify) {
  LinkToolchain toolchain = tools();
  toolchain.llgo_wasm_root = "/src/llgo-wasm";
  toolchain.wasm_merge = "/opt/wasm-merge";
  auto checked_plan = build_link_plan(resolved_stack_switching(), parse_link_arguments({"main.o", "-O2", "-o", "app.wasm"}),
                                      toolchain, naming());
  ASSERT_EQ(checked_plan.steps.size(), 6u);
  EXPECT_EQ(checked_plan.steps[1].kind, LinkStepKind::add_stack_check);
  EXPECT_EQ(checked_plan.steps[2].command[5], ".app.wasm.checked.4242.abc123.tmp") << "the merge takes the checked module";
  auto plan = build_link_plan(resolved_stack_switching(),
                              parse_link_arguments({"main.o", "-O2", "--stack-check", "off", "-o", "app.wasm"}), toolchain, naming());
  ASSERT_EQ(plan.steps.size(), 5u);
  EXPECT_EQ(plan.steps[0].name, "link");
  EXPECT_EQ(plan.steps[1].name, "merge");
  EXPECT_EQ(plan.steps[2].name, "wasm-opt+exnref");
  EXPECT_TRUE(contains(plan.steps[0].command, "-Wl,--export=__c_longjmp")) << "the context's ldflags";
  EXPECT_TRUE(contains(plan.steps[0].command, "-lsetjmp"));

  const std::string core = ".app.wasm.core.4242.abc123.tmp";
  const std::string merged = ".app.wasm.merged.4242.abc123.tmp";
  const std::string final_module = ".app.wasm.final.4242.abc123.tmp";
  const auto& merge = plan.steps[1].command;
  EXPECT_EQ(merge, (std::vector<std::string>{"/opt/wasm-merge", "--enable-exception-handling", "--enable-stack-switching",
                                             "--enable-gc", "--enable-reference-types", core, "llgo_program",
                                             "/src/llgo-wasm/runtime/src/wasmcontext_stack_switching.wat",
                                             "llgo_stack_switching", "-o", merged}));
  const auto& opt = plan.steps[2].command;
  EXPECT_EQ(opt[1], merged);
  for (const auto& word : opt) {
    EXPECT_EQ(word.find("asyncify"), std::string::npos) << "no Asyncify anywhere: " << word;
    EXPECT_NE(word, "-all");
  }
  EXPECT_TRUE(contains(opt, "--enable-stack-switching"));
  EXPECT_TRUE(contains(opt, "--remove-exports=llgo_stack_switching_*,__c_longjmp"));
  EXPECT_LT(index_of(opt, "-O2"), index_of(opt, "--translate-to-exnref"));
  EXPECT_EQ(opt.back(), final_module);

  ASSERT_TRUE(plan.steps[3].expectations.has_value());
  EXPECT_FALSE(plan.steps[3].expectations->forbid_stack_switching);
  EXPECT_TRUE(plan.steps[3].expectations->forbid_legacy_exceptions);
  EXPECT_EQ(plan.steps[3].expectations->merged_import_modules, std::vector<std::string>{"llgo_stack_switching"});
  EXPECT_EQ(plan.temporaries, (std::vector<std::string>{core, merged, final_module}));
  EXPECT_FALSE(plan.steps[2].arguments_file) << "no Asyncify arguments from a call-graph analysis";

  // Whatever Asyncify mode the link line asks for, and with the target's own level (no -O):
  // no analysis step, no Asyncify argument.
  for (const char* mode : {"narrowed", "wide", "none"}) {
    auto asked = build_link_plan(resolved_stack_switching(),
                                 parse_link_arguments({"main.o", "--asyncify", mode, "--stack-check=off", "-o", "app.wasm"}),
                                 toolchain, naming());
    ASSERT_EQ(asked.steps.size(), 5u) << mode;
    for (const auto& step : asked.steps) {
      EXPECT_NE(step.kind, LinkStepKind::analyse_asyncify) << mode;
      for (const auto& word : step.command) EXPECT_EQ(word.find("asyncify"), std::string::npos) << mode << ": " << word;
    }
    EXPECT_TRUE(contains(asked.steps[2].command, "-O2")) << "the descriptor's link-optimization";
    ASSERT_TRUE(asked.steps[3].expectations.has_value());
    EXPECT_TRUE(asked.steps[3].expectations->forbid_asyncify_imports) << mode;
  }

  // P1 keeps its plan, and its check now forbids stack switching.
  auto p1 = build_link_plan(resolved_p1(), parse_link_arguments({"main.o", "--stack-check", "off", "-o", "app.wasm"}),
                            toolchain, naming());
  ASSERT_EQ(p1.steps.size(), 5u);
  EXPECT_EQ(p1.steps[1].kind, LinkStepKind::analyse_asyncify);
  ASSERT_EQ(p1.steps[3].kind, LinkStepKind::validate_module);
  EXPECT_TRUE(p1.steps[3].expectations->forbid_stack_switching);
  EXPECT_TRUE(p1.steps[3].expectations->merged_import_modules.empty());
}

TEST(LinkPlan, JsonFormHasToolsArgsInputsOutputs) {
  auto plan = build_link_plan(resolved_p1(), parse_link_arguments({"a.o", "-o", "a.wasm"}), tools(), naming());
  nlohmann::json json = link_plan_to_json(plan);
  EXPECT_EQ(json["kind"], "executable");
  ASSERT_EQ(json["steps"].size(), 6u);
  EXPECT_EQ(json["steps"][1]["kind"], "stack-check");
  EXPECT_EQ(json["steps"][1]["inputs"][0], ".a.wasm.core.4242.abc123.tmp");
  EXPECT_EQ(json["steps"][2]["kind"], "analyse");
  EXPECT_EQ(json["steps"][2]["switch_imports"], (nlohmann::json{"asyncify.start_unwind", "asyncify.stop_rewind"}));
  EXPECT_EQ(json["steps"][3]["tool"], "/opt/wasm-opt");
  EXPECT_EQ(json["steps"][3]["inputs"][0], ".a.wasm.checked.4242.abc123.tmp");
  EXPECT_EQ(json["steps"][3]["arguments_file"], ".a.wasm.asyncify-args.4242.abc123.tmp");
  EXPECT_EQ(json["steps"][5]["outputs"][0], "a.wasm");
}

namespace {

ResolvedTarget resolved_j32() { return link_test::resolve_target_named("wasm"); }

}  // namespace

// emcc names its .wasm after the .js, so it links into a temporary folder under the output's
// own name; with narrowed Asyncify its Binaryen runs through the shim (EM_BINARYEN_ROOT).
TEST(LinkPlan, EmscriptenExecutableLinksIntoAFolderThroughTheBinaryenShim) {
  LinkToolchain emscripten = tools();
  emscripten.compiler = "/opt/emcc";
  emscripten.emscripten_binaryen_root = "/opt/binaryen";
  emscripten.driver_executable = "/opt/llgo-wasm";
  auto plan = build_link_plan(resolved_j32(), parse_link_arguments({"main.o", "-o", "out/app.js"}), emscripten, naming());
  ASSERT_EQ(plan.steps.size(), 4u);
  EXPECT_EQ(plan.steps[0].kind, LinkStepKind::prepare_binaryen_shim);
  const std::string shim = "out/.app.js.binaryen.4242.abc123.tmp";
  const std::string folder = "out/.app.js.emcc.4242.abc123.tmp";
  EXPECT_EQ(plan.steps[0].outputs.front(), shim);
  ASSERT_TRUE(plan.steps[0].shim.has_value());
  EXPECT_EQ(plan.steps[0].shim->binaryen_root, "/opt/binaryen");
  EXPECT_TRUE(plan.steps[0].shim->narrow);
  EXPECT_TRUE(plan.steps[0].shim->stack_check) << "the shim adds the stack check to emcc's module";
  const auto& emcc = plan.steps[1].command;
  EXPECT_EQ(emcc.front(), "/opt/emcc");
  EXPECT_TRUE(contains(emcc, "-sASYNCIFY=1"));
  EXPECT_TRUE(contains(emcc, "-O2")) << "no -O given: the descriptor's default reaches emcc";
  EXPECT_EQ(emcc.back(), folder + "/app.js");
  EXPECT_EQ(plan.steps[1].environment, std::vector<std::string>{"EM_BINARYEN_ROOT=" + shim});
  EXPECT_EQ(plan.steps[1].create_directories, std::vector<std::string>{folder});
  EXPECT_EQ(plan.steps[2].kind, LinkStepKind::read_asyncify_report);
  EXPECT_EQ(plan.steps[3].inputs.front(), folder);
  EXPECT_EQ(plan.steps[3].outputs.front(), "out/app.js");

  // -O3 stays on emcc's line (emcc runs Binaryen with it); --asyncify none drops -sASYNCIFY.
  // Without Asyncify the shim still runs, for the stack check alone; with neither, no shim.
  auto unnarrowed = build_link_plan(resolved_j32(), parse_link_arguments({"main.o", "-o", "app.js", "--asyncify", "none"}),
                                    emscripten, naming());
  ASSERT_EQ(unnarrowed.steps.size(), 4u);
  ASSERT_TRUE(unnarrowed.steps[0].shim.has_value());
  EXPECT_FALSE(unnarrowed.steps[0].shim->narrow);
  EXPECT_TRUE(unnarrowed.steps[0].shim->stack_check);
  auto none = build_link_plan(resolved_j32(), parse_link_arguments({"main.o", "-O3", "-sASYNCIFY", "-o", "app.js", "--asyncify", "none",
                                                                    "--stack-check", "off"}),
                              emscripten, naming());
  ASSERT_EQ(none.steps.size(), 2u);
  EXPECT_TRUE(contains(none.steps[0].command, "-O3"));
  for (const auto& word : none.steps[0].command) EXPECT_EQ(word.rfind("-sASYNCIFY", 0), std::string::npos) << word;

  // Without emcc's Binaryen the link still works, narrowed by emcc's own analysis, and says so.
  LinkToolchain no_binaryen = emscripten;
  no_binaryen.emscripten_binaryen_root.reset();
  auto plain = build_link_plan(resolved_j32(), parse_link_arguments({"main.o", "-o", "app.js"}), no_binaryen, naming());
  ASSERT_EQ(plain.steps.size(), 2u);
  EXPECT_NE(format_link_plan_text(plain).find("Asyncify not narrowed"), std::string::npos);
  EXPECT_NE(format_link_plan_text(plain).find("no stack-overflow check"), std::string::npos);
}

// --stack-size (resolved by the CLI and handed to the plan): two steps before the link write and
// compile the program's llgo_stack_size, whose object the link takes; --stack-check off says
// what the module loses.
TEST(LinkPlan, ProgramStackSizeIsCompiledIntoTheLinkAndTheCheckCanBeTurnedOff) {
  auto arguments = parse_link_arguments({"main.o", "-o", "out/app.wasm"});
  arguments.program_stack_size = 16u << 20;
  auto plan = build_link_plan(resolved_p1(), arguments, tools(), naming());
  ASSERT_EQ(plan.steps.size(), 8u);
  EXPECT_EQ(plan.steps[0].kind, LinkStepKind::write_source);
  const std::string source = "out/.app.wasm.stack-size.4242.abc123.tmp/llgo_stack_size.c";
  const std::string object = "out/.app.wasm.stack-size.4242.abc123.tmp/llgo_stack_size.o";
  EXPECT_EQ(plan.steps[0].outputs, std::vector<std::string>{source});
  EXPECT_NE(plan.steps[0].content.find("const __SIZE_TYPE__ llgo_stack_size = 16777216u;"), std::string::npos)
      << plan.steps[0].content;
  const auto& compile = plan.steps[1].command;
  EXPECT_EQ(compile.front(), "/opt/clang");
  EXPECT_TRUE(contains(compile, "-c") && contains(compile, source) && contains(compile, object));
  EXPECT_TRUE(contains(compile, "-DLLGO_CONTEXT_ASYNCIFY")) << "the target's effective cflags";
  EXPECT_EQ(plan.steps[2].name, "link");
  EXPECT_TRUE(contains(plan.steps[2].command, object));
  EXPECT_TRUE(contains(plan.temporaries, "out/.app.wasm.stack-size.4242.abc123.tmp"));
  // An archive takes no stack size.
  auto archive_arguments = parse_link_arguments({"--kind", "archive", "a.o", "-o", "libx.a"});
  archive_arguments.program_stack_size = 16u << 20;
  EXPECT_EQ(build_link_plan(resolved_p1(), archive_arguments, tools(), naming()).steps.size(), 2u);

  auto off = build_link_plan(resolved_p1(), parse_link_arguments({"main.o", "--stack-check", "off", "-o", "app.wasm"}), tools(), naming());
  for (const auto& step : off.steps) EXPECT_NE(step.kind, LinkStepKind::add_stack_check);
  EXPECT_NE(format_link_plan_text(off).find("no stack-overflow check (--stack-check off)"), std::string::npos);
  EXPECT_THROW(parse_link_arguments({"main.o", "--stack-check", "maybe", "-o", "app.wasm"}), LinkUsageError);
}

// Every step carries the kind the executor dispatches on (its name is only a label): a tool kind
// per tool, and a folder publish for emcc's output; the JSON keeps one "run" and one "publish".
TEST(LinkPlan, EveryStepCarriesTheKindTheExecutorDispatchesOn) {
  auto kinds = [](const LinkPlan& plan) {
    std::vector<LinkStepKind> found;
    for (const auto& step : plan.steps) found.push_back(step.kind);
    return found;
  };
  auto arguments = parse_link_arguments({"main.o", "-o", "out/app.wasm"});
  arguments.program_stack_size = 1u << 20;
  const LinkPlan p1 = build_link_plan(resolved_p1(), arguments, tools(), naming());
  EXPECT_EQ(kinds(p1), (std::vector<LinkStepKind>{LinkStepKind::write_source, LinkStepKind::compile_source, LinkStepKind::link,
                                                  LinkStepKind::add_stack_check, LinkStepKind::analyse_asyncify,
                                                  LinkStepKind::optimise_module, LinkStepKind::validate_module,
                                                  LinkStepKind::publish_output}));
  LinkToolchain toolchain = tools();
  toolchain.wasm_merge = "/opt/wasm-merge";
  const LinkPlan merged = build_link_plan(resolved_stack_switching(), parse_link_arguments({"main.o", "-o", "app.wasm"}),
                                          toolchain, naming());
  EXPECT_EQ(kinds(merged), (std::vector<LinkStepKind>{LinkStepKind::link, LinkStepKind::add_stack_check,
                                                      LinkStepKind::merge_modules, LinkStepKind::optimise_module,
                                                      LinkStepKind::validate_module, LinkStepKind::publish_output}));
  EXPECT_EQ(merged.steps[3].name, "wasm-opt+exnref");
  const LinkPlan archive = build_link_plan(resolved_p1(), parse_link_arguments({"--kind", "archive", "a.o", "-o", "libx.a"}),
                                           tools(), naming());
  EXPECT_EQ(kinds(archive), (std::vector<LinkStepKind>{LinkStepKind::archive, LinkStepKind::publish_output}));
  const LinkPlan emcc = build_link_plan(link_test::resolve_target_named("wasm"), parse_link_arguments({"main.o", "-o", "app.js"}),
                                        tools(), naming());
  EXPECT_EQ(emcc.steps.front().kind, LinkStepKind::link);
  EXPECT_EQ(emcc.steps.back().kind, LinkStepKind::publish_folder);

  for (const auto& step : p1.steps) EXPECT_EQ(runs_tool(step.kind), !step.command.empty()) << step.name;
  nlohmann::json json = link_plan_to_json(p1);
  for (size_t index : {1u, 2u, 5u}) EXPECT_EQ(json["steps"][index]["kind"], "run") << index;
  EXPECT_EQ(link_plan_to_json(emcc)["steps"].back()["kind"], "publish");
  EXPECT_NE(format_link_plan_text(emcc).find("move the files of"), std::string::npos);
}
