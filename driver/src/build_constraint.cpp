// Tokenizer and recursive-descent parser for //llgo:build expressions (see the header).
// The recursion is bounded: only "(" and "!" nest (limits::kMaxConstraintNesting), and a
// chain of && or || becomes one node with many operands, not a deep tree.
#include "llgo_wasm/build_constraint.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "llgo_wasm/input_limits.hpp"

namespace llgo_wasm {

namespace {

bool is_tag_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

struct Token {
  enum class Kind { Tag, And, Or, Not, Open, Close, End } kind;
  std::string text;
  std::size_t offset;  // in the expression
};

std::string describe(const Token& token) {
  return token.kind == Token::Kind::End ? "end of line" : "\"" + token.text + "\"";
}

}  // namespace

class ConstraintParser {
 public:
  ConstraintParser(std::string_view expression, const Location& where) : expression_(expression), where_(where) {
    if (expression_.size() > limits::kMaxConstraintLength) {
      fail(Token{Token::Kind::End, "", limits::kMaxConstraintLength},
           "build constraint longer than " + std::to_string(limits::kMaxConstraintLength) +
               " characters (the limit); split the file or simplify the expression");
    }
    tokenize();
  }

  BuildConstraint parse() {
    if (tokens_.size() == 1) fail(tokens_[0], "empty build constraint: expected an expression such as \"wasm && wasip1\"");
    result_.root_ = parse_or();
    if (current().kind != Token::Kind::End) {
      fail(current(), "unexpected " + describe(current()) + " after a complete expression (missing && or ||?)");
    }
    for (std::size_t i = 0; i + 1 < tokens_.size(); ++i) {
      if (!result_.text_.empty() && tokens_[i - 1].kind != Token::Kind::Open && tokens_[i - 1].kind != Token::Kind::Not &&
          tokens_[i].kind != Token::Kind::Close) {
        result_.text_ += ' ';
      }
      result_.text_ += tokens_[i].text;
    }
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(const Token& token, const std::string& message) const {
    Location at = where_;
    if (at.known()) at.column += static_cast<int>(token.offset);
    if (!at.known() && at.file.empty()) throw DriverError("column " + std::to_string(token.offset + 1) + ": " + message);
    throw DriverError(at, message);
  }

  void tokenize() {
    std::size_t i = 0;
    while (i < expression_.size()) {
      char c = expression_[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
        continue;
      }
      std::size_t start = i;
      if (is_tag_char(c)) {
        while (i < expression_.size() && is_tag_char(expression_[i])) ++i;
        tokens_.push_back({Token::Kind::Tag, std::string(expression_.substr(start, i - start)), start});
      } else if (c == '&' || c == '|') {
        if (i + 1 >= expression_.size() || expression_[i + 1] != c) {
          fail(Token{Token::Kind::End, std::string(1, c), start},
               std::string("\"") + c + "\" is not an operator; use \"" + c + c + "\"");
        }
        tokens_.push_back({c == '&' ? Token::Kind::And : Token::Kind::Or, std::string(2, c), start});
        i += 2;
      } else if (c == '!' || c == '(' || c == ')') {
        Token::Kind kind = c == '!' ? Token::Kind::Not : c == '(' ? Token::Kind::Open : Token::Kind::Close;
        tokens_.push_back({kind, std::string(1, c), start});
        ++i;
      } else {
        char shown[8];
        unsigned char byte = static_cast<unsigned char>(c);
        std::snprintf(shown, sizeof shown, byte > 0x20 && byte < 0x7f ? "'%c'" : "byte 0x%02x", byte);
        fail(Token{Token::Kind::End, std::string(1, c), start},
             std::string("unexpected character ") + shown + ": tags are letters, digits, '_' and '.'");
      }
    }
    tokens_.push_back({Token::Kind::End, "", expression_.size()});
  }

  const Token& current() const { return tokens_[position_]; }

  int add(BuildConstraint::Node node) {
    result_.nodes_.push_back(std::move(node));
    return static_cast<int>(result_.nodes_.size() - 1);
  }

  int parse_or() {
    std::vector<int> operands = {parse_and()};
    while (current().kind == Token::Kind::Or) {
      ++position_;
      operands.push_back(parse_and());
    }
    return operands.size() == 1 ? operands[0] : add({BuildConstraint::Node::Kind::Or, "", std::move(operands)});
  }

  int parse_and() {
    std::vector<int> operands = {parse_unary()};
    while (current().kind == Token::Kind::And) {
      ++position_;
      operands.push_back(parse_unary());
    }
    return operands.size() == 1 ? operands[0] : add({BuildConstraint::Node::Kind::And, "", std::move(operands)});
  }

  // Entered once per "(" or "!" around the cursor: the only way the parser recurses.
  void nest(const Token& token) {
    if (++depth_ > limits::kMaxConstraintNesting) {
      fail(token, "build constraint nested deeper than " + std::to_string(limits::kMaxConstraintNesting) +
                      " levels of \"(\" and \"!\" (the limit); simplify the expression");
    }
  }

  int parse_unary() {
    const Token& token = current();
    switch (token.kind) {
      case Token::Kind::Not: {
        nest(token);
        ++position_;
        int operand = parse_unary();
        --depth_;
        return add({BuildConstraint::Node::Kind::Not, "", {operand}});
      }
      case Token::Kind::Open: {
        nest(token);
        ++position_;
        int inner = parse_or();
        --depth_;
        if (current().kind != Token::Kind::Close) {
          fail(current(), "expected \")\" to close the \"(\" at column " + std::to_string(token.offset + 1) + ", found " +
                              describe(current()));
        }
        ++position_;
        return inner;
      }
      case Token::Kind::Tag:
        ++position_;
        return add({BuildConstraint::Node::Kind::Tag, token.text, {}});
      default:
        fail(token, "expected a tag, \"!\" or \"(\", found " + describe(token));
    }
  }

  std::string_view expression_;
  Location where_;
  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  std::size_t depth_ = 0;
  BuildConstraint result_;
};

BuildConstraint BuildConstraint::parse(std::string_view expression, const Location& where) {
  return ConstraintParser(expression, where).parse();
}

bool BuildConstraint::evaluate_node(int index, const std::function<bool(std::string_view)>& has_tag) const {
  const Node& node = nodes_[static_cast<std::size_t>(index)];
  switch (node.kind) {
    case Node::Kind::Tag: return has_tag(node.tag);
    case Node::Kind::Not: return !evaluate_node(node.operands[0], has_tag);
    case Node::Kind::And:
      return std::all_of(node.operands.begin(), node.operands.end(), [&](int operand) { return evaluate_node(operand, has_tag); });
    case Node::Kind::Or:
      return std::any_of(node.operands.begin(), node.operands.end(), [&](int operand) { return evaluate_node(operand, has_tag); });
  }
  return false;
}

bool BuildConstraint::evaluate(const std::function<bool(std::string_view tag)>& has_tag) const {
  return evaluate_node(root_, has_tag);
}

bool BuildConstraint::evaluate(const std::vector<std::string>& sorted_tags) const {
  return evaluate([&](std::string_view tag) { return std::binary_search(sorted_tags.begin(), sorted_tags.end(), tag); });
}

std::vector<std::string> BuildConstraint::tags() const {
  std::vector<std::string> out;
  for (const auto& node : nodes_) {
    if (node.kind == Node::Kind::Tag && std::find(out.begin(), out.end(), node.tag) == out.end()) out.push_back(node.tag);
  }
  return out;
}

}  // namespace llgo_wasm
