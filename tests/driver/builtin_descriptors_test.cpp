// Walks every built-in descriptor and checks the invariants the rest of the project
// relies on (rustc_target-style), plus the JSON round trip of each resolved target.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/target_fields.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

int pointer_width_of(const std::string& triple) {
  std::string arch = triple.substr(0, triple.find('-'));
  if (arch == "wasm32") return 4;
  if (arch == "wasm64" || arch == "x86_64" || arch == "aarch64") return 8;
  return 0;
}

TEST(BuiltinDescriptors, AreTheFiveVariants) {
  std::multiset<Variant> variants;
  for (const auto& target : builtin_descriptors().targets()) variants.insert(target.spec.variant);
  for (Variant variant : {"J32", "J64", "P1T", "native"}) {
    EXPECT_EQ(variants.count(variant), 1u) << variant;
  }
  EXPECT_EQ(variants.count("P1"), 2u) << "wasip1 and wasip1-stack-switching";
  EXPECT_EQ(builtin_descriptors().names(),
            (std::vector<std::string>{"host", "js-wasm", "wasip1", "wasip1-stack-switching", "wasip1-threads", "wasm"}));
}

TEST(BuiltinDescriptors, EmbeddedSourcesKeepTheirFileNames) {
  std::set<std::string> names;
  for (const auto& source : builtin_descriptor_sources()) names.insert(source.file_name);
  for (const char* expected : {"targets/wasm-base.json", "targets/wasm.json", "targets/js-wasm.json",
                               "targets/wasip1.json", "targets/wasip1-threads.json", "targets/host.json"}) {
    EXPECT_TRUE(names.count(expected)) << expected;
  }
  EXPECT_FALSE(names.count("targets/schema.json"));
}

TEST(BuiltinDescriptors, EveryDescriptorKeepsItsInvariants) {
  for (const auto& target : builtin_descriptors().targets()) {
    const TargetSpec& spec = target.spec;
    const Capabilities& caps = spec.capabilities;
    SCOPED_TRACE(spec.name);
    bool wasm = spec.triple.rfind("wasm", 0) == 0;
    bool emscripten = spec.triple.find("emscripten") != std::string::npos;
    bool wasi = spec.goos == "wasip1";

    ASSERT_FALSE(target.files.empty());
    EXPECT_EQ(target.files.back(), "targets/" + spec.name + ".json");
    EXPECT_EQ(spec.data_model.pointer, pointer_width_of(spec.triple));
    EXPECT_EQ(spec.data_model.ssize_t_size, spec.data_model.pointer);
    EXPECT_LE(spec.data_model.long_size, spec.data_model.pointer);
    EXPECT_EQ(caps.memory64, spec.triple.rfind("wasm64", 0) == 0);
    ASSERT_FALSE(caps.supported_contexts.empty());
    EXPECT_TRUE(std::count(caps.supported_contexts.begin(), caps.supported_contexts.end(), caps.context) == 1);
    EXPECT_FALSE(caps.asyncify == AsyncifyMode::PostLink && caps.threads);
    if (caps.eh.compile != caps.eh.final) {
      // the link's post-link wasm-opt step translates it, with or without Asyncify
      EXPECT_EQ(caps.eh.compile, ExceptionModel::Legacy);
      EXPECT_EQ(caps.eh.final, ExceptionModel::Exnref);
    }
    if (spec.context_merge.count(caps.context) || caps.stack_switching) {
      EXPECT_TRUE(caps.stack_switching && wasm && caps.asyncify == AsyncifyMode::None) << "stack switching needs no Asyncify";
      EXPECT_GT(spec.max_goroutines, 0u) << "the engine aborts past some number of continuations";
    }
    // Whoever runs Asyncify after linking has a default optimisation level for a link line without -O.
    if (caps.asyncify != AsyncifyMode::None) {
      EXPECT_EQ(spec.link_optimization, "-O2");
    }
    EXPECT_GT(spec.default_stack_size, 0u);
    EXPECT_EQ(spec.default_stack_size % 16, 0u);
    EXPECT_EQ(spec.separate_stack_size % 16, 0u);
    // A running stack as roomy as a thread's everywhere (issue 33): at least 8 MiB.
    EXPECT_GE(spec.default_stack_size, 8u << 20);
    for (const auto& flag : spec.cflags) EXPECT_TRUE(!flag.empty() && flag.front() != ' ' && flag.back() != ' ') << flag;
    for (const auto& flag : spec.ldflags) EXPECT_TRUE(!flag.empty() && flag.front() != ' ' && flag.back() != ' ') << flag;

    // `llgo-wasm run` has an engine for the default output: the first of run-engines, one the
    // tests run every case on (neither sampled nor optional).
    ASSERT_FALSE(spec.run_engines.empty());
    const Engine& first_run_engine = spec.engines.at(spec.run_engines.front());
    EXPECT_TRUE(first_run_engine.extension.empty() || first_run_engine.extension == spec.output.default_extension);
    EXPECT_FALSE(first_run_engine.sampled);
    EXPECT_FALSE(first_run_engine.optional);
    for (const auto& [name, engine] : spec.engines) {
      // A tool of the machine is found at a version known to run these programs.
      if (engine.command.front() == "node" || engine.command.front() == "node26") {
        EXPECT_FALSE(engine.minimum_version.empty()) << name;
      }
    }
    if (wasm) {
      EXPECT_EQ(spec.goarch, "wasm");
      EXPECT_TRUE(contains(spec.build_tags, "nogc"));
      EXPECT_EQ(spec.default_stack_size, 8u << 20);
      EXPECT_EQ(spec.separate_stack_size, 65536u);
      EXPECT_NE(first_run_engine.command.front(), "{program}");
      // Every published module uses standard exception handling (or none of wasm's own).
      EXPECT_NE(caps.eh.final, ExceptionModel::Legacy);
      EXPECT_FALSE(spec.output.default_extension.empty());
      EXPECT_TRUE(contains(spec.output.accepted_extensions, spec.output.default_extension));
    } else {
      EXPECT_EQ(first_run_engine.command.front(), "{program}");
      EXPECT_EQ(spec.output.default_extension, "");
      EXPECT_EQ(caps.eh.compile, ExceptionModel::Host);
    }
    if (emscripten) {
      EXPECT_EQ(spec.goos, "js");
      EXPECT_TRUE(contains(spec.environments, "node"));
      EXPECT_TRUE(contains(effective_flags(spec).ldflags, "-sENVIRONMENT=web,webview,worker,node"));
      EXPECT_TRUE(contains(spec.build_tags, "emscripten"));
      EXPECT_EQ(caps.asyncify, AsyncifyMode::Emscripten);
      EXPECT_EQ(caps.context, "emscripten-fiber");
      EXPECT_EQ(spec.output.accepted_extensions, (std::vector<std::string>{".js", ".mjs"}));
      EXPECT_EQ(spec.output.default_extension, ".js");
      EXPECT_EQ(spec.run_engines, (std::vector<std::string>{"node-js", "node-esm"}));
      if (caps.memory64) {
        EXPECT_TRUE(contains(spec.cflags, "-sMEMORY64=1"));
        EXPECT_TRUE(contains(spec.ldflags, "-sMEMORY64=1"));
      }
    } else {
      EXPECT_TRUE(spec.environments.empty());
    }
    if (wasi) {
      EXPECT_FALSE(caps.memory64);
      EXPECT_EQ(spec.output.accepted_extensions, std::vector<std::string>{".wasm"});
      EXPECT_TRUE(contains(spec.ldflags, "-lsetjmp"));
      EXPECT_EQ(caps.eh.final, ExceptionModel::Exnref);
    }
    if (caps.threads && wasm) {
      EXPECT_TRUE(contains(spec.cflags, "-pthread"));
      EXPECT_TRUE(contains(spec.ldflags, "-Wl,--shared-memory"));
    }
  }
}

// The built-in set is precompiled at build time; it is exactly what loading the embedded
// sources gives, and custom descriptors still inherit from its (lazily parsed) sources.
TEST(BuiltinDescriptors, PrecompiledSetEqualsTheLoadedSources) {
  DescriptorSet loaded = DescriptorSet::load(builtin_descriptor_sources());
  EXPECT_EQ(builtin_descriptors().targets(), loaded.targets());
  TargetDescriptor custom = builtin_descriptors().load_source({"custom/x.json", R"({"name": "x", "inherits": "wasi-base", "variant": "P1",
      "triple": "wasm32-unknown-wasip1", "data-model": {"pointer": 4, "long": 4, "ssize_t": 4},
      "capabilities": {"asyncify": "post-link", "eh": {"compile": "legacy", "final": "exnref"},
                       "context": {"default": "asyncify", "supported": ["asyncify"]}}})"});
  EXPECT_EQ(custom.files, (std::vector<std::string>{"targets/wasm-base.json", "targets/wasi-base.json", "custom/x.json"}));
}

TEST(BuiltinDescriptors, PlatformDefaultsAreUnambiguous) {
  std::set<std::string> seen;
  for (const auto& target : builtin_descriptors().targets()) {
    if (!target.platform_default) continue;
    std::string key = target.spec.goos + "/" + target.spec.goarch + nlohmann::json(target.required_environment).dump();
    EXPECT_TRUE(seen.insert(key).second) << key;
  }
  // The 32-bit `wasm` target is reachable by name only.
  EXPECT_FALSE(builtin_descriptors().find("wasm")->platform_default);
}

TEST(BuiltinDescriptors, EveryResolvedTargetRoundTripsThroughJson) {
  for (const auto& name : builtin_descriptors().names()) {
    for (const auto& context : builtin_descriptors().find(name)->spec.capabilities.supported_contexts) {
      Query query;
      query.target = name;
      query.context = context;
      ResolvedTarget target = resolve_target(builtin_descriptors(), query);
      nlohmann::json json = target_to_json(target);
      ResolvedTarget again = target_from_json(json);
      EXPECT_EQ(again, target) << json.dump(2);
      EXPECT_EQ(target_to_json(again), json);
      // And through text, as a client would see it.
      EXPECT_EQ(target_from_json(nlohmann::json::parse(json.dump())), target);
    }
  }
}

// targets/schema.json (which the loader embeds and reads) names the same keys and the same
// enumerated values as the C++ side: the loader's key list, the enum spellings, and what a
// serialised target holds.
nlohmann::json resolve_ref(const nlohmann::json& node, const nlohmann::json& definitions) {
  if (!node.contains("$ref")) return node;
  return resolve_ref(definitions[node["$ref"].get<std::string>().substr(8)], definitions);
}

void collect_schema_keys(const nlohmann::json& properties, const std::string& prefix, std::set<std::string>& keys,
                         std::map<std::string, nlohmann::json>& enums, const nlohmann::json& definitions) {
  for (const auto& [key, property] : properties.items()) {
    std::string path = prefix.empty() ? key : prefix + "/" + key;
    keys.insert(path);
    nlohmann::json resolved = resolve_ref(property, definitions);
    if (resolved.contains("items")) resolved = resolve_ref(resolved["items"], definitions);
    if (resolved.contains("enum")) enums[path] = resolved["enum"];
    nlohmann::json shape = resolve_ref(property, definitions);
    if (shape.contains("properties")) collect_schema_keys(shape["properties"], path, keys, enums, definitions);
    if (shape.contains("additionalProperties") && shape["additionalProperties"].is_object()) {
      nlohmann::json member = resolve_ref(shape["additionalProperties"], definitions);
      if (member.contains("properties")) collect_schema_keys(member["properties"], path + "/*", keys, enums, definitions);
    }
  }
}

TEST(BuiltinDescriptors, JsonSchemaMatchesTheLoader) {
  std::ifstream in(std::string(LLGO_WASM_SOURCE_DIR) + "/targets/schema.json");
  ASSERT_TRUE(in.good());
  nlohmann::json schema = nlohmann::json::parse(in);
  std::set<std::string> schema_keys;
  std::map<std::string, nlohmann::json> enums;
  collect_schema_keys(schema["properties"], "", schema_keys, enums, schema["$defs"]);
  std::vector<std::string> loader = descriptor_schema_keys();
  EXPECT_EQ(schema_keys, std::set<std::string>(loader.begin(), loader.end()));
  auto names = [](const std::vector<std::string_view>& list) { return nlohmann::json(std::vector<std::string>(list.begin(), list.end())); };
  EXPECT_EQ(enums["capabilities/asyncify"], names(asyncify_mode_names()));
  EXPECT_EQ(enums["capabilities/eh/compile"], names(exception_model_names()));
  // Variants and context backends are listed only in the schema; the loader checks them there.
  EXPECT_EQ(enums["capabilities/context/default"], enums["capabilities/context/supported"]);
  EXPECT_EQ(enums["origin/goos"], names(origin_names()));
}

// Every key a serialised target holds is a schema key, and every inherited schema key is
// written by some built-in target: the schema and spec_to_json/target_to_json list the same fields.
void collect_json_paths(const nlohmann::json& object, const std::string& prefix, std::set<std::string>& paths) {
  for (const auto& [key, value] : object.items()) {
    std::string path = prefix.empty() ? key : prefix + "/" + key;
    // Map members (engines, context-ldflags, context-asyncify-removelist, context-merge and its
    // modules, environment) are named "*" in the schema: the field table says which keys are maps.
    bool map = std::any_of(target_fields().begin(), target_fields().end(), [&](const TargetField& field) {
      return field.path == prefix &&
             (field.kind == FieldKind::StringMap || field.kind == FieldKind::StringListMap || field.kind == FieldKind::ObjectMap);
    });
    if (map) path = prefix + "/*";
    paths.insert(path);
    if (value.is_object()) collect_json_paths(value, path, paths);
  }
}

TEST(BuiltinDescriptors, SchemaAndSerialisedTargetsHaveTheSameKeys) {
  std::vector<std::string> loader = descriptor_schema_keys();
  std::set<std::string> schema(loader.begin(), loader.end());
  std::set<std::string> written;
  for (const auto& name : builtin_descriptors().names()) {
    Query query;
    query.target = name;
    collect_json_paths(target_to_json(resolve_target(builtin_descriptors(), query)), "", written);
  }
  for (const auto& path : written) {
    // Map members of string maps are the map's own values, not keys of the schema.
    if (path.size() > 2 && path.compare(path.size() - 2, 2, "/*") == 0 && !schema.count(path)) continue;
    EXPECT_TRUE(schema.count(path)) << "a serialised target writes \"" << path << "\", which targets/schema.json lacks";
  }
  for (const auto& path : schema) {
    bool identity = path == "name" || path == "inherits" || path == "abstract" || path == "platform-default" ||
                    path == "requires-env" || path == "host" || path == "output-file" || path.rfind("output-file/", 0) == 0;
    if (identity) continue;
    EXPECT_TRUE(written.count(path)) << "targets/schema.json has \"" << path << "\", which no serialised target writes";
  }
}

// `llgo-wasm resolve --json --target X > t.json; llgo-wasm resolve --json --target t.json` prints
// the same: a resolved target loads back as a descriptor and resolves to itself.
TEST(BuiltinDescriptors, EveryResolvedTargetLoadsBackAsItself) {
  testing::TemporaryDirectory directory("round-trip");
  for (const auto& name : builtin_descriptors().names()) {
    for (const auto& context : builtin_descriptors().find(name)->spec.capabilities.supported_contexts) {
      Query query;
      query.target = name;
      query.context = context;
      nlohmann::json first = target_to_json(resolve_target(builtin_descriptors(), query));
      auto file = directory.write(name + "-" + *query.context + ".json", first.dump(2));
      Query again;
      again.target = file.string();
      EXPECT_EQ(target_to_json(resolve_target(builtin_descriptors(), again)), first) << name << " / " << *query.context;
    }
  }
}

}  // namespace
}  // namespace llgo_wasm
