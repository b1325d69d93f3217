// Cache-key properties: determinism, order independence, location independence, and
// sensitivity to every ABI-relevant field (one test instance per field).
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/resolve.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using nlohmann::json;
using testing::fails_with;
using testing::TemporaryDirectory;

ResolvedTarget resolve_named(const std::string& name) {
  Query query;
  query.target = name;
  return resolve_target(builtin_descriptors(), query);
}

void write_package(const TemporaryDirectory& directory) {
  directory.write("main.go", "package main\nfunc main() {}\n");
  directory.write("util/util.go", "package util\n");
  directory.write("c/helper.c", "int helper(void) { return 1; }\n");
  directory.write(".git/HEAD", "ref: ignored\n");
}

CacheKeyRequest request_for(const TemporaryDirectory& directory) {
  return CacheKeyRequest{
      .toolchain = {{"clang", "19.1.7"}, {"binaryen", "132"}, {"emscripten", "3.1.69"}},
      .flags = {"-O2"},
      .package_root = directory.path(),
      .files = {},
      .dependency_keys = {"aaaa", "bbbb"},
  };
}

TEST(CacheKey, Sha256MatchesKnownVector) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(CacheKey, IsDeterministicAndSkipsDotFiles) {
  TemporaryDirectory directory("key");
  write_package(directory);
  ResolvedTarget target = resolve_named("wasip1");
  CacheKey first = compute_cache_key(target, request_for(directory));
  CacheKey second = compute_cache_key(target, request_for(directory));
  EXPECT_EQ(first.hex, second.hex);
  EXPECT_EQ(first.hex.size(), 64u);
  ASSERT_EQ(first.inputs.size(), 3u);
  EXPECT_EQ(first.inputs[0].path, "c/helper.c");
  EXPECT_EQ(first.inputs[1].path, "main.go");
  EXPECT_EQ(first.inputs[2].path, "util/util.go");
  EXPECT_EQ(first.inputs[1].digest, sha256_hex("package main\nfunc main() {}\n"));
}

TEST(CacheKey, IsTheSameInEveryCheckoutLocation) {
  TemporaryDirectory here("checkout-a");
  TemporaryDirectory there("checkout-b");
  write_package(here);
  write_package(there);
  ResolvedTarget target = resolve_named("wasm");
  EXPECT_EQ(compute_cache_key(target, request_for(here)).hex, compute_cache_key(target, request_for(there)).hex);
  // And the encoding holds no absolute path.
  CacheKeyRequest request = request_for(here);
  CacheKey key = compute_cache_key(target, request);
  EXPECT_EQ(canonical_cache_key_encoding(target, request, key.inputs).find(here.path().string()), std::string::npos);
}

TEST(CacheKey, InputsAndDependenciesAreOrderIndependent) {
  TemporaryDirectory directory("order");
  write_package(directory);
  ResolvedTarget target = resolve_named("wasip1");
  CacheKeyRequest forward = request_for(directory);
  forward.files = {"main.go", "util/util.go", "c/helper.c"};
  CacheKeyRequest backward = forward;
  backward.files = {"c/helper.c", (directory.path() / "util/util.go").string(), "main.go"};
  backward.dependency_keys = {"bbbb", "aaaa"};
  EXPECT_EQ(compute_cache_key(target, forward).hex, compute_cache_key(target, backward).hex);
  // Listing every file explicitly equals walking the root.
  EXPECT_EQ(compute_cache_key(target, forward).hex, compute_cache_key(target, request_for(directory)).hex);
}

TEST(CacheKey, EveryNonTargetInputChangesTheKey) {
  TemporaryDirectory directory("inputs");
  write_package(directory);
  ResolvedTarget target = resolve_named("wasip1");
  const CacheKeyRequest base = request_for(directory);
  const std::string base_key = compute_cache_key(target, base).hex;
  std::set<std::string> keys = {base_key};
  auto differs = [&](const CacheKeyRequest& request, const char* what) {
    std::string key = compute_cache_key(target, request).hex;
    EXPECT_TRUE(keys.insert(key).second) << what << " did not change the key";
  };
  CacheKeyRequest changed = base;
  changed.toolchain["clang"] = "19.1.8";
  differs(changed, "the compiler version");
  changed = base;
  changed.toolchain["binaryen"] = "133";
  differs(changed, "the Binaryen version");
  changed = base;
  changed.toolchain["emscripten"] = "3.1.70";
  differs(changed, "the Emscripten version");
  changed = base;
  changed.flags = {"-O2", "-g"};
  differs(changed, "an extra flag");
  changed = base;
  changed.flags = {"-g", "-O2"};
  differs(changed, "flag order (flags are ordered)");
  changed = base;
  changed.dependency_keys = {"aaaa", "cccc"};
  differs(changed, "a dependency key");
  changed = base;
  changed.files = {"main.go", "util/util.go"};
  differs(changed, "a missing input");
  directory.write("main.go", "package main\nfunc main() { }\n");
  differs(base, "file contents");
  std::filesystem::rename(directory.path() / "util/util.go", directory.path() / "util/other.go");
  differs(base, "a renamed file");
}

TEST(CacheKey, NoTwoBuiltInTargetsShareAKey) {
  TemporaryDirectory directory("variants");
  write_package(directory);
  std::set<std::string> keys;
  for (const auto& name : builtin_descriptors().names()) {
    EXPECT_TRUE(keys.insert(compute_cache_key(resolve_named(name), request_for(directory)).hex).second) << name;
  }
  // Also through plain GOOS/GOARCH: J64 and P1T differ from J32 and P1.
  Query p1t;
  p1t.environment = {{"GOOS", "wasip1"}, {"GOARCH", "wasm"}, {"LLGO_WASI_THREADS", "1"}};
  EXPECT_EQ(compute_cache_key(resolve_target(builtin_descriptors(), p1t), request_for(directory)).hex,
            compute_cache_key(resolve_named("wasip1-threads"), request_for(directory)).hex);
}

TEST(CacheKey, ErrorsNameTheFile) {
  TemporaryDirectory directory("key-errors");
  write_package(directory);
  ResolvedTarget target = resolve_named("wasip1");
  CacheKeyRequest request = request_for(directory);
  request.files = {"../outside.go"};
  EXPECT_TRUE(fails_with([&] { compute_cache_key(target, request); }, {"../outside.go: not inside the package root"}));
  request.files = {"absent.go"};
  EXPECT_TRUE(fails_with([&] { compute_cache_key(target, request); }, {"absent.go: not a regular file"}));
  request.package_root = directory.path() / "nope";
  EXPECT_TRUE(fails_with([&] { compute_cache_key(target, request); }, {"the package root is not a directory"}));
}

// One ABI-relevant field, changed alone through the resolved target's JSON.
struct FieldChange {
  const char* field;  // as named by abi_fields()
  const char* json_pointer;
  json new_value;
  const char* base = "wasip1";  // the built-in target that is changed
};

std::vector<FieldChange> field_changes() {
  return {
      {"variant", "/variant", "J64"},
      {"goos", "/goos", "js"},
      {"goarch", "/goarch", "wasm64"},
      {"triple", "/triple", "wasm32-wasi"},
      {"data-model.pointer", "/data-model/pointer", 8},
      {"data-model.long", "/data-model/long", 8},
      {"data-model.ssize_t", "/data-model/ssize_t", 8},
      {"capabilities.asyncify", "/capabilities/asyncify", "none"},
      {"capabilities.memory64", "/capabilities/memory64", true},
      {"capabilities.eh.compile", "/capabilities/eh/compile", "exnref"},
      {"capabilities.eh.final", "/capabilities/eh/final", "legacy"},
      {"capabilities.threads", "/capabilities/threads", true},
      {"capabilities.stack-switching", "/capabilities/stack-switching", true},
      {"capabilities.context.default", "/capabilities/context/default", "pthread"},
      {"capabilities.stacks.default", "/capabilities/stacks/default", "separate"},
      {"build-tags", "/build-tags", json::array({"nogc", "extra"})},
      {"cflags", "/cflags", json::array({"-DCHANGED"})},
      {"ldflags", "/ldflags", json::array()},
      {"context-cflags", "/context-cflags", json::object({{"asyncify", json::array({"-DCHANGED"})}})},
      {"context-ldflags", "/context-ldflags", json::object({{"asyncify", json::array({"-DCHANGED"})}})},
      {"context-eh", "/context-eh", json::object({{"asyncify", {{"compile", "legacy"}, {"final", "exnref"}}}})},
      {"context-merge", "/context-merge",
       json::object({{"asyncify", {{"modules", {{"glue", "{root}/glue.wat"}}}, {"internal-exports", json::array()},
                                   {"features", json::array()}}}})},
      {"environments", "/environments", json::array({"node"})},
      {"asyncify-imports", "/asyncify-imports", json::array({"env.host_yield"})},
      {"asyncify-removelist", "/asyncify-removelist", json::array({"other"})},
      {"context-asyncify-removelist", "/context-asyncify-removelist", json::object({{"asyncify", json::array({"other"})}})},
      {"default-stack-size", "/default-stack-size", 131072},
      {"separate-stack-size", "/separate-stack-size", 131072},
      {"max-goroutines", "/max-goroutines", 1000, "wasip1-stack-switching"},
      {"link-optimization", "/link-optimization", "-O3"},
      {"environment", "/environment", json::object({{"LLGO_WASI_THREADS", "1"}})},
  };
}

class AbiField : public ::testing::TestWithParam<FieldChange> {};

TEST_P(AbiField, ChangingItAloneChangesTheKey) {
  TemporaryDirectory directory("abi");
  write_package(directory);
  const FieldChange& change = GetParam();
  ResolvedTarget base = resolve_named(change.base);
  json changed_json = target_to_json(base);
  ASSERT_NE(changed_json.at(json::json_pointer(change.json_pointer)), change.new_value) << "the change must be a change";
  changed_json[json::json_pointer(change.json_pointer)] = change.new_value;
  ResolvedTarget changed = target_from_json(changed_json);
  // Exactly this one ABI field differs.
  auto base_fields = abi_fields(base);
  auto changed_fields = abi_fields(changed);
  ASSERT_EQ(base_fields.size(), changed_fields.size());
  for (std::size_t i = 0; i < base_fields.size(); ++i) {
    EXPECT_EQ(base_fields[i].second != changed_fields[i].second, base_fields[i].first == change.field) << base_fields[i].first;
  }
  EXPECT_NE(compute_cache_key(base, request_for(directory)).hex, compute_cache_key(changed, request_for(directory)).hex);
}

INSTANTIATE_TEST_SUITE_P(CacheKey, AbiField, ::testing::ValuesIn(field_changes()),
                         [](const ::testing::TestParamInfo<FieldChange>& info) {
                           std::string name = info.param.field;
                           for (char& c : name) {
                             if (c == '.' || c == '-') c = '_';
                           }
                           return name;
                         });

TEST(CacheKey, EveryAbiFieldHasItsOwnTest) {
  std::set<std::string> tested;
  for (const auto& change : field_changes()) tested.insert(change.field);
  for (const char* target : {"wasip1", "wasip1-stack-switching"}) {
    for (const auto& [field, value] : abi_fields(resolve_named(target))) {
      EXPECT_TRUE(tested.count(field)) << "no AbiField test changes " << field << " (of " << target << ")";
    }
  }
}

TEST(CacheKey, NonAbiFieldsDoNotChangeTheKey) {
  TemporaryDirectory directory("non-abi");
  write_package(directory);
  ResolvedTarget base = resolve_named("wasip1");
  json changed_json = target_to_json(base);
  changed_json["descriptor-files"] = json::array({"/somewhere/else/targets/wasip1.json"});
  changed_json["origin"] = {{"goos", "environment"}, {"goarch", "environment"}};
  changed_json["output"]["accepted-extensions"] = json::array({".wasm", ".out"});
  changed_json["run-engines"] = json::array({"other"});
  changed_json["engines"] = {{"other", {{"command", {"other-engine", "{program}"}}}}};
  changed_json["overridden-environment"] = {{"GOOS", "js"}};
  changed_json["capabilities"]["stacks"]["supported"] = json::array({"shared"});
  ResolvedTarget changed = target_from_json(changed_json);
  EXPECT_EQ(compute_cache_key(base, request_for(directory)).hex, compute_cache_key(changed, request_for(directory)).hex);
}

}  // namespace
}  // namespace llgo_wasm
