// The named capabilities of a resolved target (target_capabilities.hpp): what CMake and the test
// case files ask instead of comparing variant or backend names.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/target_capabilities.hpp"

namespace llgo_wasm {
namespace {

ResolvedTarget resolve(const std::string& target, const std::string& context = "") {
  Query query;
  query.target = target;
  if (!context.empty()) query.context = context;
  return resolve_target(builtin_descriptors(), query);
}

bool holds(const std::vector<std::string>& capabilities, const char* name) {
  return std::find(capabilities.begin(), capabilities.end(), name) != capabilities.end();
}

// Every built-in target with every context it supports: each pair of opposites has exactly one
// member, every name is in the vocabulary, and resolve --json lists them.
TEST(TargetCapabilities, EveryTargetAndContextHasOneOfEachPair) {
  for (const std::string& name : builtin_descriptors().names()) {
    for (const ContextBackend& context : resolve(name).spec.capabilities.supported_contexts) {
      SCOPED_TRACE(name + " / " + context);
      const ResolvedTarget target = resolve(name, context);
      const std::vector<std::string> capabilities = target_capabilities(target.spec);
      EXPECT_NE(holds(capabilities, "single-worker"), holds(capabilities, "threaded"));
      EXPECT_NE(holds(capabilities, "shared-stacks"), holds(capabilities, "separate-stacks"));
      for (const std::string& capability : capabilities) EXPECT_TRUE(is_target_capability(capability));
      EXPECT_EQ(target_to_json(target)["effective"]["capabilities"], nlohmann::json(capabilities));
    }
  }
}

// What the build and the case files rely on, per target family.
TEST(TargetCapabilities, WhatEachFamilyHas) {
  const auto p1 = target_capabilities(resolve("wasip1").spec);
  for (const char* name : {"single-worker", "shared-stacks", "asyncify-switch", "wasm", "wasi", "driver-links"})
    EXPECT_TRUE(holds(p1, name)) << name;
  EXPECT_FALSE(holds(p1, "event-loop"));
  const auto p1t = target_capabilities(resolve("wasip1-threads").spec);
  EXPECT_TRUE(holds(p1t, "threaded"));
  EXPECT_TRUE(holds(p1t, "driver-links"));
  const auto fiber = target_capabilities(resolve("wasm").spec);
  for (const char* name : {"single-worker", "separate-stacks", "event-loop", "javascript", "wasm", "driver-links"})
    EXPECT_TRUE(holds(fiber, name)) << name;
  EXPECT_FALSE(holds(fiber, "asyncify-switch"));
  EXPECT_FALSE(holds(fiber, "wasi"));
  EXPECT_FALSE(holds(fiber, "engine-stacks"));
  const auto jspi = target_capabilities(resolve("wasm", "jspi").spec);
  for (const char* name : {"single-worker", "separate-stacks", "engine-stacks", "event-loop", "javascript"})
    EXPECT_TRUE(holds(jspi, name)) << name;
  EXPECT_FALSE(holds(jspi, "asyncify-switch"));
  EXPECT_TRUE(holds(target_capabilities(resolve("wasip1-stack-switching").spec), "engine-stacks"));
  EXPECT_FALSE(holds(p1, "engine-stacks"));
  const auto host = target_capabilities(resolve("host").spec);
  EXPECT_TRUE(holds(host, "threaded"));
  EXPECT_FALSE(holds(host, "wasm"));
  EXPECT_FALSE(holds(host, "driver-links"));
  EXPECT_TRUE(holds(target_capabilities(resolve("host", "ucontext").spec), "single-worker"));
  EXPECT_FALSE(is_target_capability("pthread"));
}

// gc-roots (docs/gc.md): where a collector finds every root at a switch, with its build tag.
TEST(TargetCapabilities, GcRootsOnlyWhereEveryRootIsInMemory) {
  auto tagged = [](const ResolvedTarget& target) {
    const std::vector<std::string> tags = effective_flags(target.spec).build_tags;
    return std::find(tags.begin(), tags.end(), "llgo.gc_roots") != tags.end();
  };
  for (const auto& [target, context] : std::vector<std::pair<std::string, std::string>>{
           {"wasip1", ""}, {"wasm", ""}, {"wasm", "asyncify"}, {"js-wasm", ""}, {"host", "ucontext"}}) {
    SCOPED_TRACE(target + " / " + context);
    const ResolvedTarget resolved = resolve(target, context);
    EXPECT_TRUE(holds(target_capabilities(resolved.spec), "gc-roots"));
    EXPECT_TRUE(tagged(resolved));
  }
  for (const auto& [target, context] : std::vector<std::pair<std::string, std::string>>{
           {"wasip1-threads", ""}, {"wasip1-stack-switching", ""}, {"host", ""}}) {
    SCOPED_TRACE(target + " / " + context);
    const ResolvedTarget resolved = resolve(target, context);
    EXPECT_FALSE(holds(target_capabilities(resolved.spec), "gc-roots"));
    EXPECT_FALSE(tagged(resolved));
  }
}

// context-handoff: where the context implements llgo_wasmcontext_handoff, with the macro the
// scheduler reads (the descriptors do not declare it; scenarios' switches-hand-off shows it taken).
TEST(TargetCapabilities, ContextHandoffOnlyWhereTheContextHasOne) {
  auto defined = [](const ResolvedTarget& target) {
    const std::vector<std::string> cflags = effective_flags(target.spec).cflags;
    return std::find(cflags.begin(), cflags.end(), "-DLLGO_WASMCONTEXT_HANDOFF=1") != cflags.end();
  };
  for (const std::string& name : builtin_descriptors().names()) {
    for (const ContextBackend& context : resolve(name).spec.capabilities.supported_contexts) {
      SCOPED_TRACE(name + " / " + context);
      const ResolvedTarget resolved = resolve(name, context);
      const bool handoff = holds(target_capabilities(resolved.spec), "context-handoff");
      EXPECT_EQ(handoff, defined(resolved));
      EXPECT_EQ(handoff, context == "jspi");
    }
  }
}

}  // namespace
}  // namespace llgo_wasm
