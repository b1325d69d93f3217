// See environment.hpp.
#include "environment.hpp"

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {

const EnvironmentVariable& wasi_threads_variable() {
  static const EnvironmentVariable variable{"LLGO_WASI_THREADS", {"1", "0", ""}, "0"};
  return variable;
}

std::string normalized_environment_value(const EnvironmentVariable& variable, const std::string* value) {
  if (!value || value->empty()) return std::string(variable.unset_means);
  for (auto accepted : variable.accepted) {
    if (*value == accepted) return *value;
  }
  std::string accepted_list;
  for (auto accepted : variable.accepted) {
    if (!accepted_list.empty()) accepted_list += ", ";
    accepted_list += accepted.empty() ? "empty or unset" : "\"" + std::string(accepted) + "\"";
  }
  throw DriverError(std::string(variable.name) + "=\"" + *value + "\" is not accepted; use " + accepted_list);
}

}  // namespace llgo_wasm::detail
