// The //llgo:build expression parser and evaluator.
#include <gtest/gtest.h>

#include "llgo_wasm/build_constraint.hpp"
#include "test_support.hpp"

namespace llgo_wasm {
namespace {

using testing::fails_with;

bool holds(const std::string& expression, std::vector<std::string> tags) {
  std::sort(tags.begin(), tags.end());
  return BuildConstraint::parse(expression).evaluate(tags);
}

TEST(BuildConstraint, Identifiers) {
  EXPECT_TRUE(holds("wasm", {"wasm"}));
  EXPECT_FALSE(holds("wasm", {"js"}));
  EXPECT_TRUE(holds("llgo.wasi_threads", {"llgo.wasi_threads"}));
  EXPECT_TRUE(holds("tinygo.wasm", {"tinygo.wasm"}));
  EXPECT_TRUE(holds("go1_2", {"go1_2"}));
}

TEST(BuildConstraint, Operators) {
  EXPECT_TRUE(holds("a && b", {"a", "b"}));
  EXPECT_FALSE(holds("a && b", {"a"}));
  EXPECT_TRUE(holds("a || b", {"b"}));
  EXPECT_FALSE(holds("a || b", {}));
  EXPECT_TRUE(holds("!a", {}));
  EXPECT_FALSE(holds("!a", {"a"}));
  EXPECT_TRUE(holds("!!a", {"a"}));
  EXPECT_TRUE(holds("wasm && wasip1 && !llgo.wasi_threads", {"wasm", "wasip1"}));
  EXPECT_FALSE(holds("wasm && wasip1 && !llgo.wasi_threads", {"wasm", "wasip1", "llgo.wasi_threads"}));
}

TEST(BuildConstraint, AndBindsTighterThanOr) {
  // a || (b && c)
  EXPECT_TRUE(holds("a || b && c", {"a"}));
  EXPECT_FALSE(holds("a || b && c", {"b"}));
  // (a || b) && c
  EXPECT_FALSE(holds("(a || b) && c", {"a"}));
  EXPECT_TRUE(holds("(a || b) && c", {"a", "c"}));
  EXPECT_TRUE(holds("!(a && b)", {"a"}));
  EXPECT_FALSE(holds("!(a && b)", {"a", "b"}));
  EXPECT_TRUE(holds("((a))", {"a"}));
}

TEST(BuildConstraint, TagsAndText) {
  BuildConstraint constraint = BuildConstraint::parse("  wasm&&(  wasip1 ||js) && !wasm ");
  EXPECT_EQ(constraint.tags(), (std::vector<std::string>{"wasm", "wasip1", "js"}));
  EXPECT_EQ(constraint.text(), "wasm && (wasip1 || js) && !wasm");
}

TEST(BuildConstraint, MalformedExpressionsNameTheColumn) {
  Location where{"runtime/proc.c", 3, 14};
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("", where); }, {"runtime/proc.c:3:14", "empty build constraint"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a &&", where); }, {"runtime/proc.c:3:18", "expected a tag", "end of line"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a & b", where); }, {"runtime/proc.c:3:16", "\"&\" is not an operator; use \"&&\""}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a | b", where); }, {"use \"||\""}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("(a || b", where); }, {"expected \")\" to close the \"(\" at column 1"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a)", where); }, {"runtime/proc.c:3:15", "unexpected \")\""}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a b", where); }, {"runtime/proc.c:3:16", "unexpected \"b\"", "missing && or ||"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("!", where); }, {"expected a tag"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a || || b", where); }, {"runtime/proc.c:3:19", "found \"||\""}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("a-b", where); }, {"runtime/proc.c:3:15", "unexpected character '-'"}));
  EXPECT_TRUE(fails_with([&] { BuildConstraint::parse("()", where); }, {"expected a tag", "found \")\""}));
  // Without a location the column is still given.
  EXPECT_TRUE(fails_with([] { BuildConstraint::parse("a $"); }, {"column 3"}));
}

}  // namespace
}  // namespace llgo_wasm
