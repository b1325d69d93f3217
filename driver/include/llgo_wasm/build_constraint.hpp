// `//llgo:build` constraints: Go build-constraint expressions over build tags.
//
//   expression = or
//   or         = and { "||" and }
//   and        = unary { "&&" unary }
//   unary      = "!" unary | "(" or ")" | tag
//   tag        = letters, digits, '_' and '.'   (e.g. wasm, llgo.wasi_threads)
//
// As in Go, && binds tighter than ||. A malformed expression is a DriverError at
// file:line:col of the offending token, and so is one longer than
// limits::kMaxConstraintLength characters or nested (by "(" and "!") deeper than
// limits::kMaxConstraintNesting levels (llgo_wasm/input_limits.hpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm {

class BuildConstraint {
 public:
  // `where` is the position of the expression's first character (for messages).
  static BuildConstraint parse(std::string_view expression, const Location& where = {});

  bool evaluate(const std::function<bool(std::string_view tag)>& has_tag) const;
  bool evaluate(const std::vector<std::string>& sorted_tags) const;
  // Tags in order of first appearance, without repeats.
  std::vector<std::string> tags() const;
  // Canonical text: tokens separated by single spaces, parentheses kept as written. Up to twice
  // as long as the expression, so it may exceed limits::kMaxConstraintLength and then not parse.
  const std::string& text() const { return text_; }

 private:
  struct Node {
    enum class Kind { Tag, Not, And, Or } kind;
    std::string tag;
    std::vector<int> operands;  // Not: one; And, Or: two or more (a chain is one node)
  };
  friend class ConstraintParser;
  bool evaluate_node(int index, const std::function<bool(std::string_view)>& has_tag) const;

  std::vector<Node> nodes_;
  int root_ = -1;
  std::string text_;
};

}  // namespace llgo_wasm
