// Output naming per target.
#include <gtest/gtest.h>

#include "llgo_wasm/output_naming.hpp"
#include "llgo_wasm/resolve.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;

OutputName name_for(const std::string& target, const std::string& requested) {
  Query query;
  query.target = target;
  return name_output(resolve_target(builtin_descriptors(), query).spec, requested);
}

TEST(OutputNaming, DefaultExtensions) {
  EXPECT_EQ(name_for("wasm", "out/hello").path, "out/hello.js");
  EXPECT_EQ(name_for("js-wasm", "hello").path, "hello.js");
  EXPECT_EQ(name_for("wasip1", "hello").path, "hello.wasm");
  EXPECT_EQ(name_for("wasip1-threads", "dir.v2/hello").path, "dir.v2/hello.wasm");
  EXPECT_EQ(name_for("host", "hello").path, "hello");
  EXPECT_EQ(name_for("wasm", "hello").format, OutputFormat::Script);
  EXPECT_EQ(name_for("wasip1", "hello").format, OutputFormat::WasmModule);
  EXPECT_EQ(name_for("host", "hello").format, OutputFormat::Executable);
}

TEST(OutputNaming, JsTargetsAcceptJsAndMjs) {
  for (const char* target : {"wasm", "js-wasm"}) {
    EXPECT_EQ(name_for(target, "hello.js").path, "hello.js");
    EXPECT_EQ(name_for(target, "hello.js").format, OutputFormat::Script);
    EXPECT_EQ(name_for(target, "hello.mjs").path, "hello.mjs");
    EXPECT_EQ(name_for(target, "hello.mjs").format, OutputFormat::EsModule);
  }
  EXPECT_EQ(name_for("wasip1", "hello.wasm").path, "hello.wasm");
  EXPECT_EQ(name_for("host", "hello.bin").path, "hello.bin");  // native names are used as given
}

TEST(OutputNaming, OtherExtensionsAreRejected) {
  EXPECT_TRUE(fails_with([] { name_for("wasm", "hello.wasm"); },
                         {"output \"hello.wasm\" ends in .wasm, which target wasm (J32) does not write", "use .js or .mjs"}));
  EXPECT_TRUE(fails_with([] { name_for("wasip1", "hello.mjs"); }, {"target wasip1 (P1)", "use .wasm"}));
  EXPECT_TRUE(fails_with([] { name_for("wasip1-threads", "hello.js"); }, {"(P1T)"}));
  EXPECT_TRUE(fails_with([] { name_for("js-wasm", "hello.cjs"); }, {"(J64)"}));
  EXPECT_TRUE(fails_with([] { name_for("wasm", ""); }, {"names no file"}));
  EXPECT_TRUE(fails_with([] { name_for("wasm", "out/"); }, {"names no file"}));
}

}  // namespace
}  // namespace llgo_wasm
