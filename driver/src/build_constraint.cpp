// Tokenizer and recursive-descent parser for //llgo:build expressions (see the header).
#include "llgo_wasm/build_constraint.hpp"

#include <algorithm>
#include <cctype>

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
        fail(Token{Token::Kind::End, std::string(1, c), start},
             std::string("unexpected character '") + c + "': tags are letters, digits, '_' and '.'");
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
    int left = parse_and();
    while (current().kind == Token::Kind::Or) {
      ++position_;
      int right = parse_and();
      left = add({BuildConstraint::Node::Kind::Or, "", left, right});
    }
    return left;
  }

  int parse_and() {
    int left = parse_unary();
    while (current().kind == Token::Kind::And) {
      ++position_;
      int right = parse_unary();
      left = add({BuildConstraint::Node::Kind::And, "", left, right});
    }
    return left;
  }

  int parse_unary() {
    const Token& token = current();
    switch (token.kind) {
      case Token::Kind::Not: {
        ++position_;
        int operand = parse_unary();
        return add({BuildConstraint::Node::Kind::Not, "", operand, -1});
      }
      case Token::Kind::Open: {
        ++position_;
        int inner = parse_or();
        if (current().kind != Token::Kind::Close) {
          fail(current(), "expected \")\" to close the \"(\" at column " + std::to_string(token.offset + 1) + ", found " +
                              describe(current()));
        }
        ++position_;
        return inner;
      }
      case Token::Kind::Tag:
        ++position_;
        return add({BuildConstraint::Node::Kind::Tag, token.text, -1, -1});
      default:
        fail(token, "expected a tag, \"!\" or \"(\", found " + describe(token));
    }
  }

  std::string_view expression_;
  Location where_;
  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  BuildConstraint result_;
};

BuildConstraint BuildConstraint::parse(std::string_view expression, const Location& where) {
  return ConstraintParser(expression, where).parse();
}

bool BuildConstraint::evaluate_node(int index, const std::function<bool(std::string_view)>& has_tag) const {
  const Node& node = nodes_[static_cast<std::size_t>(index)];
  switch (node.kind) {
    case Node::Kind::Tag: return has_tag(node.tag);
    case Node::Kind::Not: return !evaluate_node(node.left, has_tag);
    case Node::Kind::And: return evaluate_node(node.left, has_tag) && evaluate_node(node.right, has_tag);
    case Node::Kind::Or: return evaluate_node(node.left, has_tag) || evaluate_node(node.right, has_tag);
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
