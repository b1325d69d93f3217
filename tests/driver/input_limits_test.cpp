// Hostile input reaches a clean DriverError, never a crash: JSON nesting and size limits,
// syntax errors that quote nothing, //llgo:build length and nesting limits, file names that
// are not UTF-8, and the did-you-mean distance. Each limit is tested at the limit and one
// past it (llgo_wasm/input_limits.hpp).
#include <gtest/gtest.h>

#include <string>

#include "llgo_wasm/build_constraint.hpp"
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/input_limits.hpp"
#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/source_selection.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;
using testing::load_custom;
using testing::named_query;


// A complete descriptor (inherits wasip1) whose "//" comment holds `depth - 1` nested arrays,
// so the whole text nests `depth` levels.
std::string descriptor_nested(std::size_t depth) {
  return R"({"name": "x", "inherits": "wasip1", "//": )" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
}

TEST(InputLimits, DeepJsonNestingIsRefusedAtTheBracket) {
  EXPECT_EQ(load_custom(descriptor_nested(limits::kMaxJsonNestingDepth)).spec.name, "x");
  // The first '[' opens level 2; the one opening level 65 is 63 characters further on.
  const std::size_t first_bracket_column = std::string(R"({"name": "x", "inherits": "wasip1", "//": )").size() + 1;
  EXPECT_TRUE(fails_with([] { load_custom(descriptor_nested(limits::kMaxJsonNestingDepth + 1)); },
                         {"custom/x.json:1:" + std::to_string(first_bracket_column + 63), "nested deeper than 64 levels",
                          "the limit"}));
  // The reproduction from the issue: 20,000 levels crashed the position scanner.
  EXPECT_TRUE(fails_with([] { load_custom(descriptor_nested(20000)); }, {"nested deeper than 64 levels"}));
}

TEST(InputLimits, BracketsInsideStringsDoNotCount) {
  std::string text = R"({"name": "x", "inherits": "wasip1", "//": ")" + std::string(10000, '[') + R"(\"{"})";
  EXPECT_EQ(load_custom(text).spec.name, "x");
}

TEST(InputLimits, OversizedDescriptorIsRefused) {
  std::string head = R"({"name": "x", "inherits": "wasip1", "//": ")";
  std::string at_limit = head + std::string(limits::kMaxDescriptorBytes - head.size() - 2, 'a') + "\"}";
  ASSERT_EQ(at_limit.size(), limits::kMaxDescriptorBytes);
  EXPECT_EQ(load_custom(at_limit).spec.name, "x");
  std::string over = head + std::string(limits::kMaxDescriptorBytes - head.size() - 1, 'a') + "\"}";
  EXPECT_TRUE(fails_with([&] { load_custom(over); },
                         {"custom/x.json:1:" + std::to_string(limits::kMaxDescriptorBytes + 1), "at most 1048576 bytes"}));
}

TEST(InputLimits, OversizedDescriptorFileIsNotReadWhole) {
  testing::TemporaryDirectory directory("limits");
  auto file = directory.write("big.json", std::string(3 * limits::kMaxDescriptorBytes, ' '));
  EXPECT_TRUE(fails_with([&] { builtin_descriptors().load_file(file.string()); }, {"big.json:", "at most 1048576 bytes"}));
}

TEST(InputLimits, SyntaxErrorsQuoteNoText) {
  // nlohmann's own message would end "last read: '"sk-live-0123456789<U+000A>'".
  EXPECT_TRUE(fails_with([] { load_custom("{\"name\": \"x\", \"//\": \"sk-live-0123456789\n\"}"); },
                         {"custom/x.json:1:40", "JSON syntax error", "control character U+000A (LF) must be escaped"}));
  try {
    load_custom("{\"name\": \"x\", \"//\": \"sk-live-0123456789\n\"}");
  } catch (const DriverError& error) {
    EXPECT_EQ(std::string(error.what()).find("sk-live"), std::string::npos) << error.what();
  }
  try {
    load_custom("password=hunter2");
  } catch (const DriverError& error) {
    EXPECT_EQ(std::string(error.what()).find("hunter2"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("custom/x.json:1:1: JSON syntax error"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("invalid literal (at 'p')"), std::string::npos) << error.what();
  }
}

TEST(InputLimits, ConstraintLengthIsBounded) {
  // The reproductions from the issue: both crashed the recursive parser.
  EXPECT_TRUE(fails_with([] { BuildConstraint::parse(std::string(300000, '!') + "wasm", {"a.c", 1, 14}); },
                         {"a.c:1:" + std::to_string(14 + limits::kMaxConstraintLength), "longer than 4096 characters",
                          "the limit"}));
  std::string chain = "wasm";
  while (chain.size() < 300000 * 8) chain += " && wasm";
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse(chain); }, {"longer than 4096 characters"}));
}

TEST(InputLimits, ConstraintNestingIsBounded) {
  const std::size_t limit = limits::kMaxConstraintNesting;
  EXPECT_TRUE(BuildConstraint::parse(std::string(limit, '!') + "wasm").evaluate(std::vector<std::string>{"wasm"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse(std::string(limit + 1, '!') + "wasm", {"a.c", 3, 14}); },
                         {"a.c:3:" + std::to_string(14 + limit), "nested deeper than 64 levels", "the limit"}));
  std::string parenthesized = std::string(limit, '(') + "wasm" + std::string(limit, ')');
  EXPECT_TRUE(BuildConstraint::parse(parenthesized).evaluate(std::vector<std::string>{"wasm"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("(" + parenthesized + ")"); }, {"column 65", "nested deeper"}));
}

TEST(InputLimits, LongChainsGiveTheRightAnswer) {
  // 600 terms fit in the length limit; a chain is one node, so evaluation stays shallow.
  std::string all_present = "a0";
  std::vector<std::string> tags = {"a0"};
  for (int i = 1; i < 600; ++i) {
    all_present += "&&a" + std::to_string(i);
    tags.push_back("a" + std::to_string(i));
  }
  std::sort(tags.begin(), tags.end());
  EXPECT_TRUE(BuildConstraint::parse(all_present).evaluate(tags));
  EXPECT_FALSE(BuildConstraint::parse(all_present + "&&missing").evaluate(tags));
  EXPECT_TRUE(BuildConstraint::parse("missing||" + all_present).evaluate(tags));
  EXPECT_FALSE(BuildConstraint::parse("!a0||!a1||!a2").evaluate(tags));
  EXPECT_EQ(BuildConstraint::parse("a && (b || !c) && d").text(), "a && (b || !c) && d");
}

TEST(InputLimits, HostileConstraintLineInASourceFileIsAnError) {
  testing::TemporaryDirectory directory("limits");
  directory.write("a.c", "//llgo:build " + std::string(300000, '!') + "wasm\n");
  ResolvedTarget target = resolve_target(builtin_descriptors(), named_query("wasip1"));
  EXPECT_TRUE(fails_with([&] { select_runtime_sources(target, directory.path()); },
                         {"a.c:1:" + std::to_string(14 + limits::kMaxConstraintLength), "longer than 4096 characters"}));
}

TEST(InputLimits, NonUtf8FileNameIsNamed) {
  testing::TemporaryDirectory directory("limits");
  directory.write("ok.c", "//llgo:build llgo\n");
  directory.write("caf\xe9.c", "//llgo:build llgo\n");
  ResolvedTarget target = resolve_target(builtin_descriptors(), named_query("wasip1"));
  EXPECT_TRUE(fails_with([&] { select_runtime_sources(target, directory.path()); },
                         {"caf\\xE9.c: the file name is not valid UTF-8", "rename"}));
}

TEST(InputLimits, DidYouMeanCountsASwapAsOneEdit) {
  EXPECT_TRUE(fails_with([] { resolve_target(builtin_descriptors(), named_query("wsam")); },
                         {"unknown target \"wsam\" (did you mean \"wasm\"?)"}));
  EXPECT_TRUE(fails_with([] { resolve_target(builtin_descriptors(), named_query("wasip1-thraeds")); },
                         {"(did you mean \"wasip1-threads\"?)"}));
  // A long unknown word costs no quadratic comparison and suggests nothing absurd.
  EXPECT_TRUE(fails_with([] { load_custom(R"({"name": "x", ")" + std::string(200000, 'q') + R"(": 1})"); },
                         {"unknown key \"qqq", "known keys: abstract"}));
}

}  // namespace
}  // namespace llgo_wasm
