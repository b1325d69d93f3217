// The named consistency rules, each on its own: a built-in target changed so that it breaks
// exactly one rule is rejected by that rule and accepted by every other, and every rule of
// the table has such a case. (descriptor_loader_test.cpp checks the same rules through the
// loader, with the file:line:col they report.)
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "descriptor_rules.hpp"
#include "llgo_wasm/descriptors.hpp"

namespace llgo_wasm::detail {
namespace {

struct RuleCase {
  std::string rule;
  std::string base;  // the built-in target that is changed
  std::function<void(TargetSpec&)> change;
  std::string fragment;  // of the message
  std::map<std::string, std::string> required_environment = {};
  bool platform_default = true;
};

std::vector<RuleCase> rule_cases() {
  return {
      {"pointer-matches-triple", "wasip1", [](TargetSpec& s) { s.data_model = {8, 4, 8}; }, "has 4-byte pointers"},
      {"sizes-are-4-or-8", "wasip1", [](TargetSpec& s) { s.data_model.long_size = 2; }, "must be 4 or 8, not 2"},
      {"ssize_t-follows-pointer", "wasip1", [](TargetSpec& s) { s.data_model.ssize_t_size = 8; }, "must follow the pointer width"},
      {"long-fits-pointer", "wasip1", [](TargetSpec& s) { s.data_model.long_size = 8; }, "cannot be wider than a pointer"},
      {"memory64-not-on-wasi", "wasip1",
       [](TargetSpec& s) {
         s.triple = "wasm64-unknown-wasip1";
         s.data_model = {8, 8, 8};
         s.capabilities.memory64 = true;
       },
       "memory64 is true on a WASI target"},
      {"memory64-matches-triple", "js-wasm", [](TargetSpec& s) { s.capabilities.memory64 = false; }, "Memory64 goes with wasm64"},
      {"post-link-asyncify-excludes-threads", "wasip1", [](TargetSpec& s) { s.capabilities.threads = true; },
       "unsafe with shared-memory threads"},
      {"asyncify-fits-triple", "host",
       [](TargetSpec& s) {
         s.capabilities.asyncify = AsyncifyMode::PostLink;
         s.capabilities.threads = false;
         s.capabilities.context = "ucontext";
         s.capabilities.supported_contexts = {"ucontext"};
         s.context_ldflags.clear();
         s.context_cflags.clear();
       },
       "\"post-link\" needs a wasm triple"},
      {"asyncify-imports-need-post-link", "wasm", [](TargetSpec& s) { s.asyncify_imports = {"env.host_yield"}; },
       "only matter to a post-link Asyncify"},
      {"default-context-is-supported", "wasip1", [](TargetSpec& s) { s.capabilities.context = "pthread"; },
       "is not among the supported ones"},
      {"contexts-fit-target", "wasip1",
       [](TargetSpec& s) { s.capabilities.supported_contexts.push_back("emscripten-fiber"); },
       "needs an Emscripten target"},
      // jspi needs a JavaScript host: P1 has one while an engine provides jspi (Node's WASI runner).
      {"contexts-fit-target", "wasip1",
       [](TargetSpec& s) {
         for (auto& [name, engine] : s.engines) std::erase(engine.provides, "jspi");
       },
       "context \"jspi\" needs a JavaScript host"},
      {"context-flags-name-supported-contexts", "wasip1",
       [](TargetSpec& s) { s.context_ldflags["pthread"] = {"-DX"}; }, "which the target does not support"},
      {"context-flags-name-supported-contexts", "wasip1",
       [](TargetSpec& s) { s.context_cflags["pthread"] = {"-DX"}; }, "context-cflags names context"},
      {"default-stacks-is-supported", "wasip1",
       [](TargetSpec& s) { s.capabilities.supported_stacks = {StackMode::Separate}; }, "default stacks \"shared\" is not among"},
      {"stacks-fit-contexts", "wasip1-threads",
       [](TargetSpec& s) { s.capabilities.supported_stacks.push_back(StackMode::Shared); },
       "stacks \"shared\" needs a context backend that can run it"},
      {"eh-models-fit-triple", "wasm",
       [](TargetSpec& s) { s.capabilities.eh = {ExceptionModel::Host, ExceptionModel::Host}; }, "cannot be \"host\""},
      {"eh-models-fit-triple", "wasip1",
       [](TargetSpec& s) { s.context_eh["asyncify"] = {ExceptionModel::Emscripten, ExceptionModel::Emscripten}; },
       "\"context-eh.asyncify.compile\" cannot be \"emscripten\""},
      {"eh-translation-is-legacy-to-exnref", "wasm",
       [](TargetSpec& s) { s.context_eh["jspi"] = {ExceptionModel::Exnref, ExceptionModel::None}; },
       "context-eh.jspi changes from \"exnref\" to \"none\""},
      {"eh-translation-is-legacy-to-exnref", "wasip1-threads",
       [](TargetSpec& s) { s.capabilities.eh = {ExceptionModel::Exnref, ExceptionModel::None}; },
       "the link can only translate legacy exception handling to exnref"},
      {"eh-final-is-standard", "wasip1-threads", [](TargetSpec& s) { s.capabilities.eh.final = ExceptionModel::Legacy; },
       "published modules must use standard exception handling"},
      {"eh-final-is-standard", "wasm", [](TargetSpec& s) { s.context_eh["jspi"] = {ExceptionModel::Legacy, ExceptionModel::Legacy}; },
       "context-eh.jspi.final is \"legacy\""},
      {"context-eh-names-supported-contexts", "wasip1",
       [](TargetSpec& s) { s.context_eh["pthread"] = {ExceptionModel::Legacy, ExceptionModel::Exnref}; },
       "context-eh names context \"pthread\", which the target does not support"},
      {"stack-switching-needs-wasm", "host", [](TargetSpec& s) { s.capabilities.stack_switching = true; },
       "is a WebAssembly proposal"},
      {"context-merge-names-supported-contexts", "wasip1",
       [](TargetSpec& s) { s.context_merge["pthread"] = {{{"glue", "{root}/glue.wat"}}, {}, {}}; },
       "which the target does not support"},
      {"environments-only-on-emscripten", "wasip1", [](TargetSpec& s) { s.environments = {"node"}; },
       "is an Emscripten setting"},
      {"placeholders-are-known", "wasip1", [](TargetSpec& s) { s.ldflags.push_back("--env={environment}"); },
       "names {environment}"},
      {"placeholders-are-known", "wasip1", [](TargetSpec& s) { s.ldflags.push_back("-L{prefix}/lib"); },
       "names {prefix}"},
      {"extensions-are-extensions", "wasip1", [](TargetSpec& s) { s.output.accepted_extensions.push_back("wasm"); },
       "is not a file extension"},
      {"default-extension-is-accepted", "wasip1", [](TargetSpec& s) { s.output.default_extension = ".js"; },
       "is not among output.accepted-extensions"},
      {"stack-size-fits-address-space", "wasip1", [](TargetSpec& s) { s.default_stack_size = 4ull << 40; },
       "more than a target with 4-byte pointers can give a goroutine"},
      {"stack-size-is-aligned", "wasip1", [](TargetSpec& s) { s.default_stack_size = 1000; }, "multiple of 16"},
      {"engines-run-the-program", "wasip1", [](TargetSpec& s) { s.engines["node-wasi"].command = {"node", "main.mjs"}; },
       "never names the program"},
      {"run-engines-name-engines", "wasip1", [](TargetSpec& s) { s.run_engines.push_back("node-wassi"); },
       "run-engines names \"node-wassi\", which is not an engine of the target"},
      {"engine-settings-are-consistent", "wasip1", [](TargetSpec& s) { s.engines["chromium"].every_case = true; },
       "is sampled (each run is costly), so it cannot run every case too"},
      {"engine-settings-are-consistent", "wasip1", [](TargetSpec& s) { s.engines["wasmedge"].minimum_version = "0.14-rc1"; },
       "minimum-version \"0.14-rc1\" is not a dotted number"},
      {"engine-contexts-are-supported", "wasip1", [](TargetSpec& s) { s.engines["wasmedge"].contexts = {"asyncify", "pthread"}; },
       "engine \"wasmedge\" names context \"pthread\" in its contexts, which the target does not support (asyncify, jspi)"},
      {"build-tags-are-identifiers", "wasip1", [](TargetSpec& s) { s.build_tags.push_back("a-b"); }, "is not an identifier"},
      {"required-environment-is-wasi-threads", "wasip1", [](TargetSpec&) {}, "requires-env can only name LLGO_WASI_THREADS",
       {{"LLGO_OTHER", "1"}}},
      {"required-environment-needs-platform-default", "wasip1-threads", [](TargetSpec&) {},
       "only matters with \"platform-default\"", {{"LLGO_WASI_THREADS", "1"}}, false},
  };
}

TEST(DescriptorRules, BuiltinTargetsPassEveryRule) {
  DescriptorPositions unknown;
  for (const auto& target : builtin_descriptors().targets()) {
    DescriptorFacts facts{target.spec, target.spec.name == "host", target.platform_default, target.required_environment, unknown};
    for (const auto& rule : descriptor_rules()) EXPECT_NO_THROW(rule.check(facts)) << target.spec.name << ": " << rule.name;
  }
}

TEST(DescriptorRules, EachRuleAloneRejectsItsCase) {
  DescriptorPositions unknown;
  std::set<std::string_view> covered;
  for (const auto& test : rule_cases()) {
    SCOPED_TRACE(test.rule);
    TargetSpec spec = builtin_descriptors().find(test.base)->spec;
    test.change(spec);
    DescriptorFacts facts{spec, test.base == "host", test.platform_default, test.required_environment, unknown};
    for (const auto& rule : descriptor_rules()) {
      std::string message;
      try {
        rule.check(facts);
      } catch (const DriverError& error) {
        message = error.what();
      }
      if (rule.name == test.rule) {
        covered.insert(rule.name);
        EXPECT_NE(message.find(test.fragment), std::string::npos) << "rule " << rule.name << " said: " << message;
      } else {
        EXPECT_EQ(message, "") << "rule " << rule.name << " also rejected the case";
      }
    }
  }
  for (const auto& rule : descriptor_rules()) EXPECT_TRUE(covered.count(rule.name)) << "no case for rule " << rule.name;
}

}  // namespace
}  // namespace llgo_wasm::detail
