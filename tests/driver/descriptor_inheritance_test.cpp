// `inherits` on hostile input: each descriptor is merged once however many paths reach it,
// the inheritance depth is bounded, paths stay inside the descriptor's own directory tree
// (or an explicit search path), and messages neither quote a file's text nor tell whether a
// path outside exists.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/input_limits.hpp"
#include "llgo_wasm/resolve.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;
using testing::named_query;
using testing::TemporaryDirectory;

// Levels l1..l<levels>, each listing the previous level twice (l1 inherits wasip1), as the
// issue's reproduction does; the last one is concrete.
std::vector<DescriptorSource> doubled_chain(int levels) {
  std::vector<DescriptorSource> sources = builtin_descriptor_sources();
  for (int level = 1; level <= levels; ++level) {
    std::string name = "l" + std::to_string(level);
    std::string parent = level == 1 ? "wasip1" : "l" + std::to_string(level - 1);
    std::string abstract = level == levels ? "" : R"(, "abstract": true)";
    sources.push_back({"chain/" + name + ".json", R"({"name": ")" + name + R"(", "inherits": [")" + parent + R"(", ")" +
                                                      parent + R"("], "build-tags": ["tag_)" + name + "\"]" + abstract + "}"});
  }
  return sources;
}

TEST(DescriptorInheritance, SharedParentsAreMergedOnce) {
  // wasip1 -> wasi-base -> wasm-base take three of the 32 levels. Without memoised merging
  // this is 2^29 merges: it never finishes (1.1 s at 16 levels).
  const int levels = static_cast<int>(limits::kMaxInheritanceDepth) - 3;
  DescriptorSet set = DescriptorSet::load(doubled_chain(levels));
  const TargetDescriptor* last = set.find("l" + std::to_string(levels));
  ASSERT_NE(last, nullptr);
  const auto& tags = last->spec.build_tags;
  for (int level = 1; level <= levels; ++level) {
    EXPECT_EQ(std::count(tags.begin(), tags.end(), "tag_l" + std::to_string(level)), 1) << level;
  }
  EXPECT_EQ(last->files.back(), "chain/l" + std::to_string(levels) + ".json");
  EXPECT_EQ(std::count(last->files.begin(), last->files.end(), "chain/l1.json"), 1);
}

TEST(DescriptorInheritance, DepthIsBounded) {
  // wasip1 -> wasi-base -> wasm-base take three levels.
  EXPECT_NO_THROW(DescriptorSet::load(doubled_chain(static_cast<int>(limits::kMaxInheritanceDepth) - 3)));
  EXPECT_TRUE(fails_with([] { DescriptorSet::load(doubled_chain(static_cast<int>(limits::kMaxInheritanceDepth) - 2)); },
                         {"chain/l", "inheritance deeper than 32 levels (the limit)"}));
}

class InheritancePaths : public ::testing::Test {
 protected:
  InheritancePaths() : root_("inherit") {
    root_.write("outside/secret.json", R"({"name": "secret", "abstract": true, "//": "sk-live-0123456789"})");
    root_.write("outside/garbage.json", "{\"name\": \"sk-live-0123456789\n");
    root_.write("project/base/common.json", R"({"name": "common", "abstract": true, "inherits": "wasip1", "cflags": ["-DCOMMON"]})");
    root_.write("project/base/broken.json", "{\"name\": \"sk-live-0123456789\n");
  }
  std::string child(const std::string& inherits) const {
    return root_.write("project/child.json", R"({"name": "child", "inherits": )" + inherits + "}").string();
  }
  std::string outside() const { return (root_.path() / "outside").string(); }

  TemporaryDirectory root_;
};

TEST_F(InheritancePaths, InsideTheTreeIsAllowed) {
  TargetDescriptor descriptor = builtin_descriptors().load_file(child(R"("base/common.json")"));
  EXPECT_EQ(descriptor.spec.cflags.back(), "-DCOMMON");
  EXPECT_TRUE(descriptor.files.back().ends_with("project/child.json"));
  // "../" is fine while it stays inside.
  root_.write("project/base/nested.json", R"({"name": "nested", "abstract": true, "inherits": "../base/common.json"})");
  EXPECT_EQ(builtin_descriptors().load_file(child(R"("base/nested.json")")).spec.cflags.back(), "-DCOMMON");
}

TEST_F(InheritancePaths, OutsideTheTreeIsRefusedWithoutProbing) {
  const std::string absolute = "\"" + outside() + "/secret.json\"";
  for (const std::string& reference : {std::string(R"("../outside/secret.json")"), absolute,
                                       std::string(R"("../outside/no-such-file.json")"),
                                       std::string(R"("/etc/no-such-dir/x.json")")}) {
    EXPECT_TRUE(fails_with([&] { builtin_descriptors().load_file(child(reference)); },
                           {"project/child.json:1:", "is outside the directories descriptors may inherit from",
                            "--descriptor-path"}))
        << reference;
  }
  // The message for an existing file and for a missing one differ only in the name.
  auto message = [&](const std::string& reference) {
    try {
      builtin_descriptors().load_file(child("\"../outside/" + reference + "\""));
    } catch (const DriverError& error) {
      std::string text = error.what();
      text.replace(text.find(reference), reference.size(), "NAME");
      return text;
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("secret.json"), message("missing.json"));
}

TEST_F(InheritancePaths, SymbolicLinksAreFollowedBeforeTheCheck) {
  std::filesystem::create_symlink(root_.path() / "outside", root_.path() / "project" / "link");
  EXPECT_TRUE(fails_with([&] { builtin_descriptors().load_file(child(R"("link/secret.json")")); },
                         {"is outside the directories"}));
}

TEST_F(InheritancePaths, AnExplicitSearchPathWidensTheTree) {
  std::string file = child(R"("secret.json")");
  EXPECT_TRUE(fails_with([&] { builtin_descriptors().load_file(file); }, {"parent \"secret.json\" not found"}));
  TargetDescriptor found = builtin_descriptors().load_file(child(R"(["wasip1", "secret.json"])"), {outside()});
  EXPECT_TRUE(found.files[found.files.size() - 2].ends_with("outside/secret.json"));
  // The same through resolution, as --descriptor-path and the C API's "descriptor_path" pass it.
  ResolvedTarget resolved = resolve_target(builtin_descriptors(), named_query(file, {outside()}));
  EXPECT_EQ(resolved.spec.name, "child");
  EXPECT_TRUE(fails_with([&] { resolve_target(builtin_descriptors(), named_query(file)); }, {"not found"}));
}

TEST_F(InheritancePaths, ParseErrorsQuoteNoFileContent) {
  for (const auto& [inherits, search] : {std::pair{std::string(R"("base/broken.json")"), std::vector<std::string>{}},
                                         std::pair{std::string(R"("garbage.json")"), std::vector<std::string>{outside()}}}) {
    try {
      builtin_descriptors().load_file(child(inherits), search);
      ADD_FAILURE() << "no error";
    } catch (const DriverError& error) {
      std::string message = error.what();
      EXPECT_NE(message.find(".json:1:"), std::string::npos) << message;
      EXPECT_NE(message.find("JSON syntax error"), std::string::npos) << message;
      EXPECT_EQ(message.find("sk-live"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace llgo_wasm
