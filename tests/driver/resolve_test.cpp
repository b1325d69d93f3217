// Resolution: the variant table of docs/architecture.md, and every error case.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "llgo_wasm/resolve.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;

ResolvedTarget resolve(Query query) { return resolve_target(builtin_descriptors(), query); }

Query environment_query(std::map<std::string, std::string> environment) {
  Query query;
  query.environment = std::move(environment);
  return query;
}

Query named(const std::string& target, std::map<std::string, std::string> environment = {}) {
  Query query = environment_query(std::move(environment));
  query.target = target;
  return query;
}

struct Row {
  const char* label;
  Query query;
  const char* name;
  Variant variant;
  const char* goos;
  const char* triple;
  int pointer, long_size, ssize_t_size;
  AsyncifyMode asyncify;
  bool memory64;
  ExceptionModel eh_compile, eh_final;
  bool threads;
  ContextBackend context;
  const char* extension;
  const char* first_run_engine;
  bool implied;
};

std::vector<Row> variant_table() {
  const HostPlatform& host = host_platform();
  static const std::string host_triple = host.triple;
  return {
      {"J32", named("wasm"), "wasm", "J32", "js", "wasm32-unknown-emscripten", 4, 4, 4, AsyncifyMode::Emscripten,
       false, ExceptionModel::Emscripten, ExceptionModel::Emscripten, false, "emscripten-fiber", ".js",
       "node-js", true},
      {"J64", environment_query({{"GOOS", "js"}, {"GOARCH", "wasm"}}), "js-wasm", "J64", "js",
       "wasm64-unknown-emscripten", 8, 8, 8, AsyncifyMode::Emscripten, true, ExceptionModel::Emscripten,
       ExceptionModel::Emscripten, false, "emscripten-fiber", ".js", "node-js", false},
      {"P1", environment_query({{"GOOS", "wasip1"}, {"GOARCH", "wasm"}}), "wasip1", "P1", "wasip1",
       "wasm32-unknown-wasip1", 4, 4, 4, AsyncifyMode::PostLink, false, ExceptionModel::Legacy, ExceptionModel::Exnref,
       false, "asyncify", ".wasm", "node-wasi", false},
      {"P1T", environment_query({{"GOOS", "wasip1"}, {"GOARCH", "wasm"}, {"LLGO_WASI_THREADS", "1"}}), "wasip1-threads",
       "P1T", "wasip1", "wasm32-wasip1-threads", 4, 4, 4, AsyncifyMode::None, false, ExceptionModel::Legacy,
       ExceptionModel::Exnref, true, "pthread", ".wasm", "node-wasi-threads", false},
      {"native", environment_query({}), "host", "native", host.goos.c_str(), host_triple.c_str(),
       host.data_model.pointer, host.data_model.long_size, host.data_model.ssize_t_size, AsyncifyMode::None, false,
       ExceptionModel::Host, ExceptionModel::Host, true, "pthread", "", "native", false},
  };
}

TEST(Resolve, VariantTable) {
  for (const Row& row : variant_table()) {
    SCOPED_TRACE(row.label);
    ResolvedTarget target = resolve(row.query);
    const TargetSpec& spec = target.spec;
    EXPECT_EQ(spec.name, row.name);
    EXPECT_EQ(spec.variant, row.variant);
    EXPECT_EQ(spec.goos, row.goos);
    EXPECT_EQ(spec.triple, row.triple);
    EXPECT_EQ(spec.data_model, (DataModel{row.pointer, row.long_size, row.ssize_t_size}));
    EXPECT_EQ(spec.capabilities.asyncify, row.asyncify);
    EXPECT_EQ(spec.capabilities.memory64, row.memory64);
    EXPECT_EQ(spec.capabilities.eh, (ExceptionModels{row.eh_compile, row.eh_final}));
    EXPECT_EQ(spec.capabilities.threads, row.threads);
    EXPECT_EQ(spec.capabilities.context, row.context);
    EXPECT_EQ(spec.output.default_extension, row.extension);
    ASSERT_FALSE(spec.run_engines.empty());
    EXPECT_EQ(spec.run_engines.front(), row.first_run_engine);
    EXPECT_EQ(target.implied_goos(), row.implied);
    EXPECT_EQ(target.implied_goarch(), row.implied);
    // The tag set always holds goos, goarch, llgo and exactly one context tag.
    const std::vector<std::string> tags = effective_flags(spec).build_tags;
    EXPECT_TRUE(std::is_sorted(tags.begin(), tags.end()));
    EXPECT_TRUE(std::binary_search(tags.begin(), tags.end(), spec.goos));
    EXPECT_TRUE(std::binary_search(tags.begin(), tags.end(), spec.goarch));
    EXPECT_TRUE(std::binary_search(tags.begin(), tags.end(), "llgo"));
    EXPECT_EQ(std::count_if(tags.begin(), tags.end(), [](const std::string& t) { return t.rfind("llgo.context_", 0) == 0; }), 1);
    EXPECT_TRUE(std::binary_search(tags.begin(), tags.end(), context_build_tag(row.context)));
    EXPECT_EQ(std::binary_search(tags.begin(), tags.end(), "tinygo.wasm"), row.variant == "J32");
    EXPECT_EQ(std::binary_search(tags.begin(), tags.end(), "llgo.wasi_threads"), row.variant == "P1T");
    EXPECT_EQ(std::binary_search(tags.begin(), tags.end(), "nogc"), row.variant != "native");
  }
}

TEST(Resolve, EveryNamedTargetNeedsNoGoosGoarch) {
  for (const auto& name : builtin_descriptors().names()) {
    ResolvedTarget target = resolve(named(name));
    EXPECT_EQ(target.spec.name, name);
    EXPECT_EQ(target.goos_origin, Origin::Target);
  }
}

TEST(Resolve, TargetWasmWinsOverTheEnvironmentAndRecordsIt) {
  ResolvedTarget target = resolve(named("wasm", {{"GOOS", "wasip1"}, {"GOARCH", "amd64"}, {"LLGO_WASI_THREADS", "1"}}));
  EXPECT_EQ(target.spec.variant, "J32");
  EXPECT_EQ(target.spec.goos, "js");
  EXPECT_EQ(target.spec.goarch, "wasm");
  EXPECT_TRUE(target.implied_goos());
  EXPECT_TRUE(target.implied_goarch());
  EXPECT_EQ(target.overridden_environment, (std::map<std::string, std::string>{{"GOARCH", "amd64"}, {"GOOS", "wasip1"}}));
  // Agreeing environment values are not "overridden".
  EXPECT_TRUE(resolve(named("wasm", {{"GOOS", "js"}, {"GOARCH", "wasm"}})).overridden_environment.empty());
}

TEST(Resolve, NamedWasiTargetsWinOverLlgoWasiThreads) {
  ResolvedTarget p1 = resolve(named("wasip1", {{"LLGO_WASI_THREADS", "1"}}));
  EXPECT_EQ(p1.spec.variant, "P1");
  EXPECT_EQ(p1.environment.at("LLGO_WASI_THREADS"), "0");
  EXPECT_EQ(p1.overridden_environment.at("LLGO_WASI_THREADS"), "1");
  ResolvedTarget p1t = resolve(named("wasip1-threads"));
  EXPECT_EQ(p1t.environment.at("LLGO_WASI_THREADS"), "1");
  EXPECT_TRUE(p1t.overridden_environment.empty());
}

TEST(Resolve, LlgoWasiThreadsAcceptsOnlyOneZeroOrEmpty) {
  for (const char* value : {"0", ""}) {
    ResolvedTarget target = resolve(environment_query({{"GOOS", "wasip1"}, {"GOARCH", "wasm"}, {"LLGO_WASI_THREADS", value}}));
    EXPECT_EQ(target.spec.variant, "P1") << value;
    EXPECT_EQ(target.environment.at("LLGO_WASI_THREADS"), "0");
  }
  for (const char* value : {"yes", "true", "2", " 1", "on"}) {
    EXPECT_TRUE(fails_with([&] { resolve(environment_query({{"GOOS", "wasip1"}, {"GOARCH", "wasm"}, {"LLGO_WASI_THREADS", value}})); },
                           {"LLGO_WASI_THREADS=\"" + std::string(value) + "\" is not accepted", "\"1\", \"0\", empty or unset"}));
    // Checked whatever the target, so a typo is never silently ignored.
    EXPECT_TRUE(fails_with([&] { resolve(named("wasm", {{"LLGO_WASI_THREADS", value}})); }, {"is not accepted"}));
  }
}

TEST(Resolve, FlagsOverrideTheEnvironment) {
  Query query = environment_query({{"GOOS", "js"}, {"GOARCH", "wasm"}});
  query.goos = "wasip1";
  ResolvedTarget target = resolve(query);
  EXPECT_EQ(target.spec.variant, "P1");
  EXPECT_EQ(target.goos_origin, Origin::Flag);
  EXPECT_EQ(target.goarch_origin, Origin::Environment);
  EXPECT_EQ(resolve(environment_query({})).goos_origin, Origin::Host);
}

TEST(Resolve, UnknownTargetListsKnownOnesWithSuggestion) {
  EXPECT_TRUE(fails_with([] { resolve(named("wasip")); },
                         {"unknown target \"wasip\"", "did you mean \"wasip1\"?", "host, js-wasm, wasip1, wasip1-stack-switching, wasip1-threads, wasm"}));
  EXPECT_TRUE(fails_with([] { resolve(named("jswasm")); }, {"did you mean \"js-wasm\"?"}));
  // Abstract bases are not targets.
  EXPECT_TRUE(fails_with([] { resolve(named("wasm-base")); }, {"unknown target \"wasm-base\""}));
}

TEST(Resolve, UnsupportedPlatformIsAnError) {
  EXPECT_TRUE(fails_with([] { resolve(environment_query({{"GOOS", "js"}, {"GOARCH", "amd64"}})); },
                         {"GOOS=js GOARCH=amd64 is not a supported target", "js/wasm (js-wasm)",
                          "wasip1/wasm LLGO_WASI_THREADS=1 (wasip1-threads)"}));
  EXPECT_TRUE(fails_with([] { resolve(environment_query({{"GOOS", "windows"}, {"GOARCH", "wasm"}})); },
                         {"GOOS=windows GOARCH=wasm is not a supported target"}));
}

TEST(Resolve, ContradictingFlagIsAnError) {
  Query query = named("wasm");
  query.goos = "wasip1";
  EXPECT_TRUE(fails_with([&] { resolve(query); }, {"--goos=wasip1 contradicts target wasm, which implies GOOS=js"}));
  query.goos = "js";
  query.goarch = "amd64";
  EXPECT_TRUE(fails_with([&] { resolve(query); }, {"--goarch=amd64 contradicts target wasm"}));
}

TEST(Resolve, ContextChoice) {
  Query query = named("wasm");
  query.context = "asyncify";
  ResolvedTarget target = resolve(query);
  EXPECT_EQ(target.spec.capabilities.context, "asyncify");
  const std::vector<std::string> tags = effective_flags(target.spec).build_tags;
  EXPECT_TRUE(std::binary_search(tags.begin(), tags.end(), "llgo.context_asyncify"));
  EXPECT_FALSE(std::binary_search(tags.begin(), tags.end(), "llgo.context_emscripten_fiber"));
  // The chosen backend is also a macro of the effective cflags (the runtime's inline switch reads it).
  auto has_cflag = [](const TargetSpec& spec, const char* flag) {
    const auto cflags = effective_flags(spec).cflags;
    return std::find(cflags.begin(), cflags.end(), flag) != cflags.end();
  };
  EXPECT_TRUE(has_cflag(target.spec, "-DLLGO_CONTEXT_ASYNCIFY"));
  EXPECT_FALSE(has_cflag(target.spec, "-DLLGO_CONTEXT_EMSCRIPTEN_FIBER"));
  EXPECT_TRUE(has_cflag(resolve(named("wasm")).spec, "-DLLGO_CONTEXT_EMSCRIPTEN_FIBER"));
  EXPECT_TRUE(has_cflag(resolve(named("wasip1-stack-switching")).spec, "-DLLGO_CONTEXT_STACK_SWITCHING"));
  EXPECT_EQ(resolve(named("host", {{"LLGO_WASM_CONTEXT", "ucontext"}})).spec.capabilities.context, "ucontext");
  EXPECT_EQ(resolve(named("host", {{"LLGO_WASM_CONTEXT", ""}})).spec.capabilities.context, "pthread");
  EXPECT_TRUE(fails_with([] { resolve(named("wasip1", {{"LLGO_WASM_CONTEXT", "pthread"}})); },
                         {"LLGO_WASM_CONTEXT=pthread is not supported by target wasip1; it supports asyncify"}));
  Query bad = named("wasm");
  bad.context = "fibre";
  EXPECT_TRUE(fails_with([&] { resolve(bad); }, {"--context=fibre is not a context backend", "emscripten-fiber, asyncify"}));
}

// A context with EH models of its own (context-eh) puts them in the resolved capabilities: J32's
// jspi compiles wasm SjLj (legacy EH, translated to exnref), its other contexts Emscripten's model.
TEST(Resolve, ContextChoosesItsExceptionModels) {
  for (const char* name : {"wasm", "js-wasm"}) {
    SCOPED_TRACE(name);
    Query jspi = named(name);
    jspi.context = "jspi";
    EXPECT_EQ(resolve(jspi).spec.capabilities.eh, (ExceptionModels{ExceptionModel::Legacy, ExceptionModel::Exnref}));
    EXPECT_EQ(target_to_json(resolve(jspi))["capabilities"]["eh"], (nlohmann::json{{"compile", "legacy"}, {"final", "exnref"}}));
    for (const char* context : {"emscripten-fiber", "asyncify"}) {
      Query other = named(name);
      other.context = context;
      EXPECT_EQ(resolve(other).spec.capabilities.eh, (ExceptionModels{ExceptionModel::Emscripten, ExceptionModel::Emscripten}))
          << context;
    }
  }
  // A resolved target loads back with the context's models (its capabilities.eh as resolved).
  Query jspi = named("wasm");
  jspi.context = "jspi";
  EXPECT_EQ(target_from_json(target_to_json(resolve(jspi))).spec.capabilities.eh.final, ExceptionModel::Exnref);
}

// engines.<name>.contexts: resolution keeps the engines that run the chosen context, in engines
// and run-engines alike. P1's jspi runs on Node's WASI and in the Chromium page (WasmEdge and
// Wasmtime run no JSPI module; Node 26's engine is jspi's only); its asyncify context keeps every
// other engine.
TEST(Resolve, ContextKeepsItsEngines) {
  auto engine_names = [](const ResolvedTarget& target) {
    std::vector<std::string> names;
    for (const auto& [name, engine] : target.spec.engines) names.push_back(name);
    return names;
  };
  Query jspi = named("wasip1");
  jspi.context = "jspi";
  ResolvedTarget p1_jspi = resolve(jspi);
  EXPECT_EQ(engine_names(p1_jspi), (std::vector<std::string>{"chromium", "node-wasi", "node26-wasi"}));
  EXPECT_EQ(p1_jspi.spec.run_engines, (std::vector<std::string>{"node-wasi"}));
  nlohmann::json form = target_to_json(p1_jspi);
  EXPECT_FALSE(form["engines"].contains("wasmedge"));
  EXPECT_EQ(form["run-engines"], (nlohmann::json{"node-wasi"}));
  // A resolved target loads back as it was resolved.
  EXPECT_EQ(engine_names(target_from_json(form)), (std::vector<std::string>{"chromium", "node-wasi", "node26-wasi"}));

  ResolvedTarget p1 = resolve(named("wasip1"));
  EXPECT_EQ(engine_names(p1), (std::vector<std::string>{"chromium", "node-wasi", "wasmedge", "wasmtime"}));
  EXPECT_EQ(p1.spec.run_engines, (std::vector<std::string>{"node-wasi", "wasmedge", "wasmtime"}));
  EXPECT_EQ(p1.spec.engines.at("wasmedge").contexts, (std::vector<std::string>{"asyncify"}));
  // J32's engines name no contexts: every one runs each of them.
  Query j32 = named("wasm");
  j32.context = "jspi";
  EXPECT_EQ(engine_names(resolve(j32)), engine_names(resolve(named("wasm"))));
}

TEST(Resolve, StacksChoice) {
  auto has_tag = [](const ResolvedTarget& target, const char* tag) {
    auto tags = effective_flags(target.spec).build_tags;
    return std::binary_search(tags.begin(), tags.end(), tag);
  };
  ResolvedTarget p1 = resolve(named("wasip1"));
  EXPECT_EQ(p1.spec.capabilities.stacks, StackMode::Shared);
  EXPECT_TRUE(has_tag(p1, "llgo.stacks_shared") && !has_tag(p1, "llgo.stacks_separate"));
  Query separate = named("wasip1");
  separate.stacks = "separate";
  ResolvedTarget p1_separate = resolve(separate);
  EXPECT_EQ(p1_separate.spec.capabilities.stacks, StackMode::Separate);
  EXPECT_TRUE(has_tag(p1_separate, "llgo.stacks_separate") && !has_tag(p1_separate, "llgo.stacks_shared"));
  EXPECT_EQ(resolve(named("wasm", {{"LLGO_WASM_STACKS", "separate"}, {"LLGO_WASM_CONTEXT", "asyncify"}}))
                .spec.capabilities.stacks,
            StackMode::Separate);
  // A Fiber owns one stack per goroutine: its default is separate, and shared is refused.
  EXPECT_EQ(resolve(named("wasm")).spec.capabilities.stacks, StackMode::Separate);
  EXPECT_EQ(resolve(named("host")).spec.capabilities.stacks, StackMode::Separate); /* pthread */
  EXPECT_EQ(resolve(named("host", {{"LLGO_WASM_CONTEXT", "ucontext"}})).spec.capabilities.stacks, StackMode::Shared);
  Query fiber_shared = named("wasm");
  fiber_shared.stacks = "shared";
  EXPECT_TRUE(fails_with([&] { resolve(fiber_shared); },
                         {"--stacks=shared cannot be used with context emscripten-fiber, which runs separate stacks only"}));
  // The resolved spec keeps only the modes its context can run, so it loads back the same.
  EXPECT_EQ(resolve(named("wasm")).spec.capabilities.supported_stacks, std::vector<StackMode>{StackMode::Separate});
  EXPECT_EQ(p1.spec.capabilities.supported_stacks, (std::vector<StackMode>{StackMode::Shared, StackMode::Separate}));
  // P1T has no stacks capability: separate only.
  EXPECT_TRUE(fails_with([] { resolve(named("wasip1-threads", {{"LLGO_WASM_STACKS", "shared"}})); },
                         {"LLGO_WASM_STACKS=shared is not supported by target wasip1-threads; it supports separate"}));
  Query typo = named("wasip1");
  typo.stacks = "sharde";
  EXPECT_TRUE(fails_with([&] { resolve(typo); }, {"--stacks=sharde is not a stack mode", "did you mean \"shared\"?"}));
}

TEST(Resolve, StackSizeChoice) {
  // The descriptors' sizes: an 8 MiB running stack, 64 KiB per goroutine with separate stacks.
  ResolvedTarget p1 = resolve(named("wasip1"));
  EXPECT_EQ(p1.spec.default_stack_size, 8u << 20);
  EXPECT_EQ(p1.spec.separate_stack_size, 64u << 10);
  EXPECT_FALSE(query_sets_stack_size(named("wasip1")));
  // Shared stacks: the size replaces default-stack-size (the shared stack, every goroutine's).
  Query shared = named("wasip1");
  shared.stack_size = "16M";
  EXPECT_TRUE(query_sets_stack_size(shared));
  ResolvedTarget big = resolve(shared);
  EXPECT_EQ(big.spec.default_stack_size, 16u << 20);
  EXPECT_EQ(big.spec.separate_stack_size, 64u << 10);
  // Separate stacks (Fiber by default on J32): it replaces separate-stack-size, main keeps 8 MiB.
  ResolvedTarget fiber = resolve(named("wasm", {{"LLGO_WASM_STACK_SIZE", "256K"}}));
  EXPECT_EQ(fiber.spec.separate_stack_size, 256u << 10);
  EXPECT_EQ(fiber.spec.default_stack_size, 8u << 20);
  // The option wins over the environment; an empty variable is unset.
  Query both = named("wasip1", {{"LLGO_WASM_STACK_SIZE", "1G"}});
  both.stack_size = "131072";
  EXPECT_EQ(resolve(both).spec.default_stack_size, 131072u);
  EXPECT_FALSE(query_sets_stack_size(named("wasip1", {{"LLGO_WASM_STACK_SIZE", ""}})));
  EXPECT_EQ(resolve(named("wasip1", {{"LLGO_WASM_STACK_SIZE", ""}})).spec.default_stack_size, 8u << 20);
  // Units, rounding, bounds.
  const std::uint64_t most32 = std::uint64_t{1} << 31;
  EXPECT_EQ(parse_stack_size("8MiB", "s", most32), 8u << 20);
  EXPECT_EQ(parse_stack_size("2g", "s", most32), 2ull << 30);
  EXPECT_EQ(parse_stack_size("5000", "s", most32), 5008u) << "rounded up to a multiple of 16";
  EXPECT_TRUE(fails_with([&] { parse_stack_size("8X", "--stack-size", most32); },
                         {"--stack-size=8X: unknown unit \"X\""}));
  EXPECT_TRUE(fails_with([&] { parse_stack_size("M", "--stack-size", most32); }, {"--stack-size=M: not a stack size"}));
  EXPECT_TRUE(fails_with([&] { parse_stack_size("100", "--stack-size", most32); }, {"less than 4096 bytes"}));
  EXPECT_TRUE(fails_with([&] { parse_stack_size("3G", "--stack-size", most32); }, {"at most 2147483648 bytes"}));
  EXPECT_TRUE(fails_with([&] { parse_stack_size("99999999999999999999G", "--stack-size", most32); }, {"too large"}));
  EXPECT_TRUE(fails_with([] { resolve(named("wasip1", {{"LLGO_WASM_STACK_SIZE", "3G"}})); },
                         {"LLGO_WASM_STACK_SIZE=3G", "at most 2147483648 bytes"}));
  // J64's pointers are 8 bytes: 3 GiB fits.
  EXPECT_EQ(resolve(named("js-wasm", {{"LLGO_WASM_STACK_SIZE", "3G"}})).spec.separate_stack_size, 3ull << 30);
  // The C API's query carries it too.
  EXPECT_EQ(query_from_json(nlohmann::json::parse(R"({"target": "wasip1", "stack_size": "1M"})")).stack_size, "1M");
}

TEST(Resolve, AsyncifyRemovelistReachesEmcc) {
  ResolvedTarget j32 = resolve(named("wasm"));
  EXPECT_FALSE(j32.spec.asyncify_removelist.empty());
  std::string flag = "-sASYNCIFY_REMOVE=llgo_fatal,";
  auto j32_ldflags = effective_flags(j32.spec).ldflags;
  EXPECT_TRUE(std::any_of(j32_ldflags.begin(), j32_ldflags.end(), [&](const std::string& f) { return f.rfind(flag, 0) == 0; }));
  ResolvedTarget p1 = resolve(named("wasip1"));
  EXPECT_EQ(p1.spec.asyncify_removelist, j32.spec.asyncify_removelist);
  auto p1_ldflags = effective_flags(p1.spec).ldflags;
  EXPECT_TRUE(std::none_of(p1_ldflags.begin(), p1_ldflags.end(),
                           [](const std::string& f) { return f.rfind("-sASYNCIFY_REMOVE", 0) == 0; }));
}

// context-asyncify-removelist: the raw asyncify backend's host loop is added to the list only
// when that backend is chosen (under emscripten-fiber the host loop is a fiber that is unwound).
TEST(Resolve, ContextAsyncifyRemovelistFollowsTheChosenContext) {
  auto has_host_loop = [](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), "dispatch_batch") != names.end();
  };
  auto remove_setting = [](const TargetSpec& spec) {
    for (const auto& flag : effective_flags(spec).ldflags) {
      if (flag.rfind("-sASYNCIFY_REMOVE=", 0) == 0) return flag;
    }
    return std::string();
  };
  Query raw = named("wasm");
  raw.context = "asyncify";
  ResolvedTarget j32_raw = resolve(raw);
  ResolvedTarget j32_fiber = resolve(named("wasm"));
  ASSERT_EQ(j32_fiber.spec.capabilities.context, "emscripten-fiber");
  EXPECT_TRUE(has_host_loop(chosen_asyncify_removelist(j32_raw.spec)));
  EXPECT_FALSE(has_host_loop(chosen_asyncify_removelist(j32_fiber.spec)));
  EXPECT_NE(remove_setting(j32_raw.spec).find(",dispatch_batch"), std::string::npos) << remove_setting(j32_raw.spec);
  EXPECT_EQ(remove_setting(j32_fiber.spec).find("dispatch_batch"), std::string::npos) << remove_setting(j32_fiber.spec);
  // The plain list comes first, then the context's.
  auto p1 = chosen_asyncify_removelist(resolve(named("wasip1")).spec);
  EXPECT_TRUE(has_host_loop(p1));
  EXPECT_EQ(p1.front(), "llgo_fatal");
}

TEST(Resolve, CustomDescriptorPath) {
  testing::TemporaryDirectory directory("resolve");
  auto file = directory.write("mine.json", R"({"name": "mine", "inherits": "wasm", "cflags": ["-DMINE"]})");
  ResolvedTarget target = resolve(named(file.string()));
  EXPECT_EQ(target.spec.name, "mine");
  EXPECT_EQ(target.spec.variant, "J32");
  EXPECT_EQ(target.spec.cflags.back(), "-DMINE");
  EXPECT_EQ(target.descriptor_files.back(), file.string());
  EXPECT_TRUE(target.implied_goos());
}

TEST(Resolve, QueryFromJson) {
  Query query = query_from_json(nlohmann::json::parse(R"({"target": "wasm", "goos": null, "env": {"GOOS": "x"}})"));
  EXPECT_EQ(query.target, "wasm");
  EXPECT_FALSE(query.goos);
  EXPECT_EQ(query.environment.at("GOOS"), "x");
  EXPECT_TRUE(fails_with([] { query_from_json(nlohmann::json::parse(R"({"targte": "wasm"})")); },
                         {"unknown key \"targte\"", "did you mean \"target\"?"}));
  EXPECT_TRUE(fails_with([] { query_from_json(nlohmann::json::parse(R"({"target": 1})")); }, {"query.target must be a string"}));
}

TEST(Resolve, ResolvedJsonHasTheContractFields) {
  nlohmann::json json = target_to_json(resolve(named("wasm")));
  for (const char* key : {"name", "variant", "goos", "goarch", "implied", "triple", "data-model", "capabilities",
                          "build-tags", "cflags", "ldflags", "default-stack-size", "output", "run-engines", "engines"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_EQ(json["implied"], (nlohmann::json{{"goos", true}, {"goarch", true}}));
  EXPECT_EQ(json["data-model"], (nlohmann::json{{"pointer", 4}, {"long", 4}, {"ssize_t", 4}}));
  EXPECT_EQ(json["capabilities"]["eh"], (nlohmann::json{{"compile", "emscripten"}, {"final", "emscripten"}}));
  EXPECT_EQ(json["capabilities"]["context"]["supported"], (nlohmann::json{"emscripten-fiber", "asyncify", "jspi"}));
  EXPECT_EQ(json["output"]["accepted-extensions"], (nlohmann::json{".js", ".mjs"}));
  EXPECT_TRUE(fails_with([&] {
    nlohmann::json broken = json;
    broken["capabilities"]["asyncify"] = "sometimes";
    target_from_json(broken);
  }, {"capabilities.asyncify is \"sometimes\"", "none, emscripten, post-link"}));
}

}  // namespace
}  // namespace llgo_wasm
