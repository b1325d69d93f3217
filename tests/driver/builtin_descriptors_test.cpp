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

TEST(BuiltinDescriptors, AreTheFiveVariantsOnceEach) {
  std::multiset<Variant> variants;
  for (const auto& target : builtin_descriptors().targets()) variants.insert(target.spec.variant);
  for (Variant variant : {Variant::J32, Variant::J64, Variant::P1, Variant::P1T, Variant::Native}) {
    EXPECT_EQ(variants.count(variant), 1u) << to_string(variant);
  }
  EXPECT_EQ(builtin_descriptors().names(),
            (std::vector<std::string>{"host", "js-wasm", "wasip1", "wasip1-threads", "wasm"}));
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
      EXPECT_EQ(caps.asyncify, AsyncifyMode::PostLink);
    }
    // Whoever runs Asyncify after linking has a default optimisation level for a link line without -O.
    if (caps.asyncify != AsyncifyMode::None) {
      EXPECT_EQ(spec.link_optimization, "-O2");
    }
    EXPECT_GT(spec.default_stack_size, 0u);
    EXPECT_EQ(spec.default_stack_size % 16, 0u);
    for (const auto& flag : spec.cflags) EXPECT_TRUE(!flag.empty() && flag.front() != ' ' && flag.back() != ' ') << flag;
    for (const auto& flag : spec.ldflags) EXPECT_TRUE(!flag.empty() && flag.front() != ' ' && flag.back() != ' ') << flag;

    if (wasm) {
      EXPECT_EQ(spec.goarch, "wasm");
      EXPECT_TRUE(contains(spec.build_tags, "nogc"));
      EXPECT_EQ(spec.default_stack_size, 65536u);
      EXPECT_NE(spec.runner, Runner::Native);
      EXPECT_FALSE(spec.output.default_extension.empty());
      EXPECT_TRUE(contains(spec.output.accepted_extensions, spec.output.default_extension));
    } else {
      EXPECT_EQ(spec.runner, Runner::Native);
      EXPECT_EQ(spec.output.default_extension, "");
      EXPECT_EQ(caps.eh.compile, ExceptionModel::Host);
    }
    if (emscripten) {
      EXPECT_EQ(spec.goos, "js");
      EXPECT_TRUE(contains(spec.environments, "node"));
      EXPECT_TRUE(contains(spec.ldflags, "-sENVIRONMENT=web,webview,worker,node"));
      EXPECT_TRUE(contains(spec.build_tags, "emscripten"));
      EXPECT_EQ(caps.asyncify, AsyncifyMode::Emscripten);
      EXPECT_EQ(caps.context, ContextBackend::EmscriptenFiber);
      EXPECT_EQ(spec.output.accepted_extensions, (std::vector<std::string>{".js", ".mjs"}));
      EXPECT_EQ(spec.output.default_extension, ".js");
      EXPECT_EQ(spec.runner, Runner::Node);
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
      EXPECT_EQ(caps.threads, spec.runner == Runner::WasiThreads);
    }
    if (caps.threads && wasm) {
      EXPECT_TRUE(contains(spec.cflags, "-pthread"));
      EXPECT_TRUE(contains(spec.ldflags, "-Wl,--shared-memory"));
    }
  }
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
      query.context = std::string(to_string(context));
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

// targets/schema.json (for editors and other tools) and the loader accept the same keys
// and the same enumerated values.
void collect_schema_keys(const nlohmann::json& properties, const std::string& prefix, std::set<std::string>& keys,
                         std::map<std::string, nlohmann::json>& enums, const nlohmann::json& definitions) {
  for (const auto& [key, property] : properties.items()) {
    std::string path = prefix.empty() ? key : prefix + "/" + key;
    keys.insert(path);
    nlohmann::json resolved = property;
    if (resolved.contains("$ref")) resolved = definitions[resolved["$ref"].get<std::string>().substr(8)];
    if (resolved.contains("items") && resolved["items"].contains("$ref")) {
      resolved = definitions[resolved["items"]["$ref"].get<std::string>().substr(8)];
    }
    if (resolved.contains("enum")) enums[path] = resolved["enum"];
    if (property.contains("properties") && path != "requires-env") {
      collect_schema_keys(property["properties"], path, keys, enums, definitions);
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
  EXPECT_EQ(enums["variant"], names(variant_names()));
  EXPECT_EQ(enums["capabilities/asyncify"], names(asyncify_mode_names()));
  EXPECT_EQ(enums["capabilities/eh/compile"], names(exception_model_names()));
  EXPECT_EQ(enums["capabilities/context/default"], names(context_backend_names()));
  EXPECT_EQ(enums["capabilities/context/supported"], names(context_backend_names()));
  EXPECT_EQ(enums["runner"], names(runner_names()));
}

}  // namespace
}  // namespace llgo_wasm
