// The loader: syntax, keys, types, inheritance and contradiction errors, each with
// the file:line:col it names, and the merge rules.
#include <gtest/gtest.h>

#include "llgo_wasm/descriptors.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;

using testing::load_custom;

TEST(DescriptorLoader, SyntaxErrorNamesLineAndColumn) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"goos\" \"js\"\n}\n"); },
                         {"custom/x.json:3:", "JSON syntax error"}));
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n}\n"); }, {"custom/x.json:3:1", "JSON syntax error", "unexpected '}'"}));
}

// nlohmann reports a number too large for a double as out_of_range, not as a parse error: it
// crashed the loader (found by fuzz_descriptor, "33.3333e333").
TEST(DescriptorLoader, NumberTooLargeIsAnErrorWithItsPosition) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"data-model\": { \"pointer\": 33.3e333 }\n}\n"); },
                         {"custom/x.json:3:30", "number overflow parsing '33.3e333'", "must fit in a double"}));
  EXPECT_TRUE(fails_with([] { load_custom("\n33.3333e333st\"3enu -: - 0 x\x13]}\n "); },
                         {"custom/x.json:2:1", "number overflow"}));
}

// Issue 30 (D9): 2^64 - 1 was read as -1 ("must be a non-negative integer", with no position),
// and 4 TB was accepted for wasm32, where the runtime's size_t made it 0.
TEST(DescriptorLoader, StackSizesBeyondTheAddressSpaceAreRefusedWithTheirPosition) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\", \"inherits\": \"wasip1\",\n  \"default-stack-size\": 18446744073709551615\n}\n"); },
                         {"custom/x.json:3:25", "default-stack-size is 18446744073709551615 bytes",
                          "more than a target with 4-byte pointers can give a goroutine (at most 2147483648"}));
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\", \"inherits\": \"wasip1\",\n  \"default-stack-size\": 4398046511104\n}\n"); },
                         {"custom/x.json:3:25", "default-stack-size is 4398046511104 bytes"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "js-wasm", "default-stack-size": 18446744073709551600})"); },
                         {"custom/x.json:1:", "more than a target with 8-byte pointers"}));
  EXPECT_EQ(load_custom(R"({"name": "x", "inherits": "wasip1", "default-stack-size": 2147483648})").spec.default_stack_size,
            2147483648u);
  EXPECT_EQ(load_custom(R"({"name": "x", "inherits": "js-wasm", "default-stack-size": 4398046511104})").spec.default_stack_size,
            4398046511104u);
}

TEST(DescriptorLoader, RejectsDuplicateKeys) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"name\": \"y\"\n}\n"); },
                         {"custom/x.json:3:3", "duplicate key \"name\"", "first at line 2"}));
}

TEST(DescriptorLoader, UnknownKeyIsRejectedWithSuggestion) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"capabilitis\": {}\n}\n"); },
                         {"custom/x.json:3:3", "unknown key \"capabilitis\"", "did you mean \"capabilities\"?"}));
  EXPECT_TRUE(fails_with(
      [] { load_custom("{\n  \"name\": \"x\",\n  \"capabilities\": {\n    \"memory_64\": true\n  }\n}\n"); },
      {"custom/x.json:4:5", "unknown key \"memory_64\" in \"capabilities\"", "did you mean \"memory64\"?"}));
}

TEST(DescriptorLoader, CommentKeysAreIgnored) {
  TargetDescriptor descriptor =
      load_custom(R"({"name": "x", "inherits": "wasip1", "//": "why", "//default-stack-size": 1, "default-stack-size": 131072})");
  EXPECT_EQ(descriptor.spec.default_stack_size, 131072u);
}

TEST(DescriptorLoader, TypeErrorNamesTheValue) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"triple\": 5\n}\n"); },
                         {"custom/x.json:3:13", "\"triple\" must be a string, not the number 5"}));
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"build-tags\": [\"a\", 3]\n}\n"); },
                         {"custom/x.json:3:23", "item 2 is the number 3"}));
  EXPECT_TRUE(fails_with([] { load_custom("{\"name\": \"x\", \"data-model\": {\"pointer\": \"4\"}}"); },
                         {"custom/x.json:1:41", "\"data-model.pointer\" must be a positive integer"}));
  EXPECT_TRUE(fails_with([] { load_custom("{\"name\": \"x\", \"capabilities\": {\"memory64\": 1}}"); },
                         {"\"capabilities.memory64\" must be true or false"}));
  EXPECT_TRUE(fails_with([] { load_custom("[1]"); }, {"custom/x.json:1:1", "must be a JSON object"}));
}

TEST(DescriptorLoader, EnumeratedValuesAreChecked) {
  EXPECT_TRUE(fails_with(
      [] { load_custom("{\"name\": \"x\", \"capabilities\": {\"asyncify\": \"postlink\"}}"); },
      {"custom/x.json:1:44", "cannot be \"postlink\"", "did you mean \"post-link\"?", "none, emscripten, post-link"}));
  EXPECT_TRUE(fails_with(
      [] { load_custom("{\"name\": \"x\", \"capabilities\": {\"context\": {\"supported\": [\"asyncify\", \"fiber\"]}}}"); },
      {"cannot be \"fiber\"", "asyncify, emscripten-fiber, pthread, ucontext"}));
  // The post-link optimiser's level is one wasm-opt and emcc both take.
  EXPECT_TRUE(fails_with([] { load_custom("{\"name\": \"x\", \"link-optimization\": \"-O9\"}"); },
                         {"custom/x.json:1:36", "cannot be \"-O9\"", "-O0, -O1, -O2, -O3, -O4, -Os, -Oz"}));
}

TEST(DescriptorLoader, MissingParentIsAnError) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"inherits\": \"wasip\"\n}\n"); },
                         {"custom/x.json:3:15", "unknown parent \"wasip\"", "did you mean \"wasip1\"?"}));
}

TEST(DescriptorLoader, InheritanceCycleIsAnError) {
  EXPECT_TRUE(fails_with(
      [] {
        DescriptorSet::load({{"t/a.json", R"({"name": "a", "abstract": true, "inherits": "b"})"},
                             {"t/b.json", R"({"name": "b", "abstract": true, "inherits": "a"})"}});
      },
      {"inheritance cycle: a -> b -> a"}));
  EXPECT_TRUE(fails_with([] { DescriptorSet::load({{"t/a.json", R"({"name": "a", "abstract": true, "inherits": "a"})"}}); },
                         {"t/a.json:1:45", "inheritance cycle: a -> a"}));
}

TEST(DescriptorLoader, ScalarsOverrideAndListsAppendInOrder) {
  TargetDescriptor descriptor = load_custom(R"({
    "name": "x",
    "inherits": "wasip1",
    "default-stack-size": 131072,
    "cflags": ["-DEXTRA=1"],
    "build-tags": ["mytag"]
  })");
  const TargetSpec& spec = descriptor.spec;
  const TargetSpec& parent = builtin_descriptors().find("wasip1")->spec;
  EXPECT_EQ(spec.default_stack_size, 131072u);
  ASSERT_EQ(spec.cflags.size(), parent.cflags.size() + 1);
  EXPECT_TRUE(std::equal(parent.cflags.begin(), parent.cflags.end(), spec.cflags.begin()));
  EXPECT_EQ(spec.cflags.back(), "-DEXTRA=1");
  EXPECT_EQ(spec.build_tags, (std::vector<std::string>{"nogc", "mytag"}));
  EXPECT_EQ(spec.triple, parent.triple);
  EXPECT_EQ(spec.variant, "P1");
  EXPECT_EQ(descriptor.files, (std::vector<std::string>{"targets/wasm-base.json", "targets/wasi-base.json",
                                                         "targets/wasip1.json", "custom/x.json"}));
  // Identity keys are not inherited: a descendant of a platform default is not one.
  EXPECT_FALSE(descriptor.platform_default);
}

TEST(DescriptorLoader, ParentsMergeInOrder) {
  DescriptorSet set = DescriptorSet::load({
      {"t/one.json", R"({"name": "one", "abstract": true, "default-stack-size": 1024, "cflags": ["-DONE"]})"},
      {"t/two.json", R"({"name": "two", "abstract": true, "default-stack-size": 2048, "cflags": ["-DTWO"]})"},
      {"t/both.json", R"({"name": "both", "inherits": ["one", "two"], "variant": "P1", "goos": "wasip1",
         "goarch": "wasm", "triple": "wasm32-unknown-wasip1", "data-model": {"pointer": 4, "long": 4, "ssize_t": 4},
         "capabilities": {"asyncify": "post-link", "memory64": false, "threads": false,
           "eh": {"compile": "legacy", "final": "exnref"}, "context": {"default": "asyncify", "supported": ["asyncify"]}},
         "output": {"default-extension": ".wasm", "accepted-extensions": [".wasm"]}})"},
  });
  const TargetDescriptor* both = set.find("both");
  ASSERT_NE(both, nullptr);
  EXPECT_EQ(both->spec.default_stack_size, 2048u);  // the later parent wins
  EXPECT_EQ(both->spec.cflags, (std::vector<std::string>{"-DONE", "-DTWO"}));
  EXPECT_EQ(set.names(), std::vector<std::string>{"both"});  // abstract ones are not targets
}

TEST(DescriptorLoader, DuplicateListValueIsAnError) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"inherits\": \"wasip1\",\n  \"build-tags\": [\"nogc\"]\n}\n"); },
                         {"custom/x.json:4:18", "\"build-tags\" already contains \"nogc\"", "targets/wasm-base.json:"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "cflags": ["-DA", "-DA"]})"); },
                         {"custom/x.json:1:55", "\"cflags\" already contains \"-DA\" (from custom/x.json:1:48)"}));
}

TEST(DescriptorLoader, DiamondInheritanceIsNotADuplicate) {
  // wasip1 already inherits wasi-base and wasm-base: reaching them twice is fine.
  TargetDescriptor descriptor = load_custom(R"({"name": "x", "inherits": ["wasip1", "wasi-base", "wasm-base"]})");
  EXPECT_EQ(descriptor.spec.build_tags, std::vector<std::string>{"nogc"});
  EXPECT_EQ(descriptor.spec.ldflags, builtin_descriptors().find("wasip1")->spec.ldflags);
}

TEST(DescriptorLoader, RejectsMemory64OnWasi) {
  EXPECT_TRUE(fails_with(
      [] { load_custom("{\n  \"name\": \"x\",\n  \"inherits\": \"wasip1\",\n  \"capabilities\": {\"memory64\": true}\n}\n"); },
      {"custom/x.json:4:32", "memory64 is true on a WASI target"}));
}

TEST(DescriptorLoader, RejectsPostLinkAsyncifyWithThreads) {
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1", "capabilities": {"threads": true}})"); },
      {"custom/x.json:1:65: capabilities.threads true cannot be combined with capabilities.asyncify \"post-link\" (set at targets/wasip1.json:"}));
}

TEST(DescriptorLoader, RejectsEmscriptenFiberOnNonEmscriptenTarget) {
  EXPECT_TRUE(fails_with(
      [] {
        load_custom(R"({"name": "x", "inherits": "wasi-base", "triple": "wasm32-unknown-wasip1", "variant": "P1",
          "data-model": {"pointer": 4, "long": 4, "ssize_t": 4},
          "capabilities": {"asyncify": "post-link", "eh": {"compile": "legacy", "final": "exnref"},
            "context": {"default": "asyncify", "supported": ["asyncify", "emscripten-fiber"]}}})");
      },
      {"custom/x.json:4:"/* the list item */, "context \"emscripten-fiber\" needs an Emscripten target",
       "wasm32-unknown-wasip1"}));
}

TEST(DescriptorLoader, RejectsDataModelThatContradictsTriple) {
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1", "data-model": {"pointer": 8, "long": 8, "ssize_t": 8}})"); },
      {"custom/x.json:1:63", "data-model.pointer is 8 but triple \"wasm32-unknown-wasip1\"", "has 4-byte pointers"}));
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "js-wasm", "data-model": {"ssize_t": 4}})"); },
      {"data-model.ssize_t is 4 but must follow the pointer width (8)"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasm", "data-model": {"long": 8}})"); },
                         {"data-model.long (8) cannot be wider than a pointer (4)"}));
}

TEST(DescriptorLoader, RejectsDefaultContextOutsideSupportedList) {
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1", "capabilities": {"context": {"default": "pthread"}}})"); },
      {"custom/x.json:1:77", "default context \"pthread\" is not among the supported ones (asyncify, jspi)"}));
}

// engines.<name>.contexts: a name that is no context is the schema's error (at the item), a
// context the target does not support the rule's (at the list: a replaced list keeps no item
// positions).
TEST(DescriptorLoader, EngineContextsAreCheckedWithTheirPosition) {
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1", "engines": {"wasmedge": {"contexts": ["asyncify", "jsp"]}}})"); },
      {"custom/x.json:1:87", "jsp"}));
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1", "engines": {"wasmedge": {"contexts": ["asyncify", "pthread"]}}})"); },
      {"custom/x.json:1:74", "engine \"wasmedge\" names context \"pthread\" in its contexts, which the target does not support "
       "(asyncify, jspi)"}));
  // Every context the target supports is fine, and so is none (absent: every one).
  EXPECT_NO_THROW(load_custom(R"({"name": "x", "inherits": "wasip1", "engines": {"wasmedge": {"contexts": ["jspi", "asyncify"]}}})"));
}

TEST(DescriptorLoader, StacksCapability) {
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1-threads", "capabilities": {"stacks": {"default": "shared"}}})"); },
      {"stacks \"shared\" needs a context backend that can run it", "supports only pthread"}));
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1-threads", "capabilities": {"stacks": {"default": "shared", "supported": ["separate"]}}})"); },
      {"default stacks \"shared\" is not among the supported ones (separate)"}));
  EXPECT_TRUE(fails_with(
      [] { load_custom(R"({"name": "x", "inherits": "wasip1", "capabilities": {"stacks": {"default": "copy"}}})"); },
      {"\"copy\"", "shared, separate"}));
}

TEST(DescriptorLoader, RejectsOtherContradictions) {
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "js-wasm", "triple": "wasm32-unknown-emscripten", "data-model": {"pointer": 4, "long": 4, "ssize_t": 4}})"); },
                         {"capabilities.memory64 is true but triple \"wasm32-unknown-emscripten\"", "is wasm32"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1-threads", "capabilities": {"eh": {"final": "legacy"}}})"); },
                         {"capabilities.eh.final is \"legacy\": published modules must use standard exception handling"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "capabilities": {"eh": {"compile": "exnref", "final": "none"}}})"); },
                         {"the link can only translate legacy exception handling to exnref"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "environments": ["node"]})"); },
                         {"\"environments\" is an Emscripten setting"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "capabilities": {"asyncify": "emscripten"}})"); },
                         {"capabilities.asyncify \"emscripten\" needs an Emscripten triple"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "output": {"default-extension": ".js"}})"); },
                         {"output.default-extension \".js\" is not among output.accepted-extensions (.wasm)"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "output": {"accepted-extensions": ["wasm"]}})"); },
                         {"\"wasm\" is not a file extension"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "build-tags": ["a-b"]})"); },
                         {"build tag \"a-b\" is not an identifier"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasip1", "default-stack-size": 1000})"); },
                         {"multiple of 16"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "host", "goos": "linux"})"); },
                         {"\"goos\" cannot be set on a host descriptor"}));
}

TEST(DescriptorLoader, ConcreteDescriptorsMustBeComplete) {
  EXPECT_TRUE(fails_with([] { load_custom("{\n  \"name\": \"x\",\n  \"inherits\": \"wasi-base\"\n}\n"); },
                         {"custom/x.json:2:11", "descriptor \"x\" sets no \"variant\"", "\"abstract\": true"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", "inherits": "wasm-base", "abstract": true})"); },
                         {"descriptor \"x\" is abstract"}));
  EXPECT_TRUE(fails_with([] { load_custom(R"({"inherits": "wasip1"})"); }, {"custom/x.json:1:1", "has no \"name\""}));
}

TEST(DescriptorLoader, SetLevelChecks) {
  EXPECT_TRUE(fails_with([] { DescriptorSet::load({{"t/a.json", R"({"name": "b", "abstract": true})"}}); },
                         {"t/a.json:1:10", "descriptor name \"b\" must match its file name \"a\""}));
  std::vector<DescriptorSource> sources = builtin_descriptor_sources();
  sources.push_back({"extra/wasip1-again.json",
                     R"({"name": "wasip1-again", "inherits": "wasip1", "platform-default": true})"});
  EXPECT_TRUE(fails_with([&] { DescriptorSet::load(sources); },
                         {"\"wasip1\" and \"wasip1-again\" are both the platform default for wasip1/wasm"}));
  sources.back() = {"extra/odd.json", R"({"name": "odd", "inherits": "wasip1", "platform-default": true,
                                         "requires-env": {"LLGO_WASI_THREADS": "yes"}})"};
  EXPECT_TRUE(fails_with([&] { DescriptorSet::load(sources); }, {"requires-env LLGO_WASI_THREADS must be \"1\" or \"0\""}));
}

TEST(DescriptorLoader, CustomFileCanInheritByRelativePath) {
  testing::TemporaryDirectory directory("descriptors");
  directory.write("base.json", R"({"name": "my-base", "abstract": true, "inherits": "wasip1", "cflags": ["-DMY_BASE"]})");
  auto child = directory.write("child.json", R"({"name": "child", "inherits": "base.json"})");
  TargetDescriptor descriptor = builtin_descriptors().load_file(child.string());
  EXPECT_EQ(descriptor.spec.cflags.back(), "-DMY_BASE");
  EXPECT_EQ(descriptor.spec.name, "child");
  EXPECT_TRUE(fails_with([&] { builtin_descriptors().load_file((directory.path() / "missing.json").string()); },
                         {"missing.json: cannot read the target descriptor"}));
}

}  // namespace
}  // namespace llgo_wasm
