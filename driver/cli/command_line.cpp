// The common target options every subcommand takes, parsed into a Query (command_line.hpp).
#include "command_line.hpp"

#include <algorithm>
#include <cstdlib>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::cli {

const char* const kCommonHelp =
    "Target options (every subcommand):\n"
    "  --target NAME|PATH.json  a built-in target (see `llgo-wasm targets`) or a custom descriptor\n"
    "  --goos GOOS, --goarch GOARCH   override the GOOS/GOARCH environment variables\n"
    "  --context NAME           execution-context backend (overrides LLGO_WASM_CONTEXT)\n"
    "  --stacks shared|separate where goroutine stacks live (overrides LLGO_WASM_STACKS)\n"
    "  --stack-size BYTES       a goroutine's C stack: bytes or a number with K, M or G (overrides\n"
    "                           LLGO_WASM_STACK_SIZE; replaces the target's default-stack-size with\n"
    "                           shared stacks, separate-stack-size with separate ones)\n"
    "  --env K=V                set an environment value for resolution (e.g. LLGO_WASI_THREADS=1)\n"
    "  --descriptor-path DIR    a custom descriptor's `inherits` may also name .json files in DIR\n"
    "                           (without it: only its own directory tree and the built-in targets)\n";

Arguments parse_arguments(const std::string& command, const std::vector<std::string>& raw,
                          const std::vector<std::string>& value_options, const std::vector<std::string>& flag_options,
                          bool pass_unknown) {
  Arguments arguments;
  for (const char* variable : {"GOOS", "GOARCH", "LLGO_WASI_THREADS", "LLGO_WASM_CONTEXT", "LLGO_WASM_STACKS",
                               "LLGO_WASM_STACK_SIZE"}) {
    if (const char* value = std::getenv(variable)) arguments.query.environment[variable] = value;
  }
  auto contains = [](const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::string option = raw[i];
    // "--" ends the common options: what follows (e.g. CMake's link line, which carries clang's
    // own --target=<triple>) belongs to the command, `--` included so it can tell the two apart.
    if (option == "--" && pass_unknown) {
      arguments.rest.insert(arguments.rest.end(), raw.begin() + static_cast<std::ptrdiff_t>(i), raw.end());
      break;
    }
    std::optional<std::string> inline_value;
    // Go's single-dash spelling (-target wasm) is accepted for long options.
    if (option.size() > 2 && option[0] == '-' && option[1] != '-') option = "-" + option;
    if (auto equals = option.find('='); option.rfind("--", 0) == 0 && equals != std::string::npos) {
      inline_value = option.substr(equals + 1);
      option = option.substr(0, equals);
    }
    auto take_value = [&]() -> std::string {
      if (inline_value) return *inline_value;
      if (i + 1 >= raw.size()) throw DriverError(command + ": " + option + " needs a value");
      return raw[++i];
    };
    if (option == "--target") {
      arguments.query.target = take_value();
    } else if (option == "--goos") {
      arguments.query.goos = take_value();
    } else if (option == "--goarch") {
      arguments.query.goarch = take_value();
    } else if (option == "--context") {
      arguments.query.context = take_value();
    } else if (option == "--stacks") {
      arguments.query.stacks = take_value();
    } else if (option == "--stack-size") {
      arguments.query.stack_size = take_value();
    } else if (option == "--descriptor-path") {
      arguments.query.descriptor_search_path.push_back(take_value());
    } else if (option == "--env") {
      std::string setting = take_value();
      auto equals = setting.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw DriverError(command + ": --env takes NAME=VALUE, not \"" + setting + "\"");
      }
      arguments.query.environment[setting.substr(0, equals)] = setting.substr(equals + 1);
    } else if (contains(value_options, option)) {
      arguments.values[option].push_back(take_value());
    } else if (contains(flag_options, option) && !inline_value) {
      arguments.flags[option] = true;
    } else if (pass_unknown) {
      arguments.rest.push_back(raw[i]);
    } else {
      throw DriverError(command + ": unknown option \"" + raw[i] + "\" (see `llgo-wasm " + command + " --help`)");
    }
  }
  return arguments;
}

std::optional<std::string> single(const Arguments& arguments, const std::string& option) {
  auto found = arguments.values.find(option);
  if (found == arguments.values.end()) return std::nullopt;
  if (found->second.size() > 1) throw DriverError(option + " given more than once");
  return found->second.front();
}

std::vector<std::string> all(const Arguments& arguments, const std::string& option) {
  auto found = arguments.values.find(option);
  return found == arguments.values.end() ? std::vector<std::string>{} : found->second;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace llgo_wasm::cli
