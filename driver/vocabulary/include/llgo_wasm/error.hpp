// Errors of the driver library.
//
// Every failure the user can fix (a bad descriptor, an unknown target, a malformed
// constraint, a bad output name) is a DriverError whose message already says where
// (file:line:col when there is a file) and what to do. The C API and the CLI turn it
// into error text and exit status 2; nothing else is thrown for user errors.
#pragma once

#include <stdexcept>
#include <string>

namespace llgo_wasm {

// A place in a text file, 1-based. Column counts characters (UTF-8 code points).
struct Location {
  std::string file;
  int line = 0;
  int column = 0;

  bool known() const { return line > 0; }
  // "file:line:col", or just "file" when the position is unknown.
  std::string to_string() const {
    return known() ? file + ":" + std::to_string(line) + ":" + std::to_string(column) : file;
  }
  bool operator==(const Location&) const = default;
};

class DriverError : public std::runtime_error {
 public:
  explicit DriverError(const std::string& message) : std::runtime_error(message) {}
  // Prefixes the message with "file:line:col: ".
  DriverError(const Location& where, const std::string& message)
      : std::runtime_error(where.to_string() + ": " + message) {}
};

// A required key is absent from a target's JSON. `path` names it dotted ("capabilities.eh"),
// so the descriptor loader can say which key a concrete descriptor fails to set.
class MissingFieldError : public DriverError {
 public:
  MissingFieldError(std::string path, const std::string& message) : DriverError(message), path(std::move(path)) {}
  std::string path;
};

}  // namespace llgo_wasm
