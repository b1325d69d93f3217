// The environment variables that take part in resolution, with their accepted values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llgo_wasm::detail {

struct EnvironmentVariable {
  std::string_view name;
  // Accepted spellings; empty means any value is checked elsewhere (LLGO_WASM_CONTEXT).
  std::vector<std::string_view> accepted;
  // What an unset or empty value means ("" when it simply means "not said").
  std::string_view unset_means;
};

// LLGO_WASI_THREADS: "1" selects P1T, "0" or empty/unset selects P1.
const EnvironmentVariable& wasi_threads_variable();

// The value of `variable` in `environment`, normalized (empty -> unset_means), or an
// error naming the accepted values. Returns unset_means when absent.
std::string normalized_environment_value(const EnvironmentVariable& variable, const std::string* value);

}  // namespace llgo_wasm::detail
