// llgo-wasm: the driver's command line.
//
//   llgo-wasm targets   [--json]
//   llgo-wasm resolve   [--json] [--output NAME]
//   llgo-wasm sources   --dir DIR [--json] [--explain]
//   llgo-wasm cache-key --package-root DIR [--file F]... [--dep-key K]... [--toolchain-id K=V]... [--flag F]... [--json] [--explain]
//   llgo-wasm link      ...   (driver/link, when built)
//   llgo-wasm run       [--engine E] [--print-command] PROGRAM [ARG...] | --list-engines   (run_command.cpp)
//   llgo-wasm cache     get|put|has|stats|trim ...   (runs llgo-wasm-cache beside this program)
//
// Common options (any subcommand): --target NAME|PATH.json (also Go's -target),
// --goos, --goarch, --context, --stacks, --stack-size, --env K=V. GOOS, GOARCH, LLGO_WASI_THREADS,
// LLGO_WASM_CONTEXT, LLGO_WASM_STACKS and LLGO_WASM_STACK_SIZE are read from the environment; the
// options override them.
// Bad input prints one message on stderr and exits 2.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/output_naming.hpp"
#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/source_selection.hpp"

#if LLGO_WASM_HAVE_LINK
#include "llgo_wasm/emscripten_asyncify.hpp"
#include "llgo_wasm/link_command.hpp"
#include "run_command.hpp"
#endif

namespace {

using nlohmann::json;
using namespace llgo_wasm;

constexpr const char* kCommonHelp =
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

struct Command {
  const char* name;
  const char* summary;
  const char* usage;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"targets", "list the built-in targets",
       "usage: llgo-wasm targets [--json]\n\nLists the concrete built-in targets (abstract bases are not listed).\n"},
      {"resolve", "print the resolved target",
       "usage: llgo-wasm resolve [target options] [--json] [--output NAME]\n\n"
       "Resolves the request and prints every decided property; --json prints the machine-readable\n"
       "object (format-version 2), which loads back as a target (--target resolved.json).\n"
       "--output NAME also names the output file for this target.\n"},
      {"sources", "select runtime sources by their //llgo:build lines",
       "usage: llgo-wasm sources [target options] --dir DIR [--json] [--explain]\n\n"
       "Prints the .c/.h/.S/.s files directly in DIR whose //llgo:build constraint holds for the\n"
       "target, one per line. --explain prints every file, selected or excluded, with the tags that decided.\n"},
      {"cache-key", "compute a package-build cache key",
       "usage: llgo-wasm cache-key [target options] --package-root DIR [--file F]... [--dep-key K]...\n"
       "                           [--toolchain-id NAME=VERSION]... [--flag F]... [--json] [--explain]\n\n"
       "Prints the SHA-256 cache key of a package build. Without --file every file under DIR\n"
       "(except names starting with '.') is an input. --explain prints the encoding that is hashed.\n"},
      {"link", "plan and run the link steps (driver/link)",
       "usage: llgo-wasm link [target options] ...   (see `llgo-wasm link --help` when built)\n"},
      {"run", "run a program under an engine of its target",
       "usage: llgo-wasm run [target options] [--engine NAME] [--print-command [--json]] [--] PROGRAM [ARG...]\n"
       "   (see `llgo-wasm run --help` when built with the link pipeline)\n"},
      {"cache", "the package cache: get, put, has, stats, trim",
       "usage: llgo-wasm cache get|put|has|stats|trim ...   (see `llgo-wasm cache --help`)\n"},
  };
  return list;
}

void print_main_help(std::ostream& out) {
  out << "usage: llgo-wasm <command> [options]\n\nCommands:\n";
  for (const auto& command : commands()) {
    out << "  " << command.name << std::string(12 - std::string(command.name).size(), ' ') << command.summary << "\n";
  }
  out << "\n" << kCommonHelp << "\nRun `llgo-wasm <command> --help` for a command's options.\n";
}

// Options after the command name, split into the common target options (a Query)
// and the command's own.
struct Arguments {
  Query query;
  std::map<std::string, std::vector<std::string>> values;  // option -> values, in order
  std::map<std::string, bool> flags;                       // boolean options
  std::vector<std::string> rest;                           // for `link`
};

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

std::string joined(const std::vector<std::string>& items, const std::string& separator = " ") {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// The resolved target as text: one line per field of its JSON form (the same fields, in the
// same order, objects walked into), lists space-separated.
void print_fields(const json& object, const std::string& prefix, std::ostream& out) {
  for (const auto& [key, value] : object.items()) {
    std::string label = prefix.empty() ? key : prefix + "." + key;
    if (label == "format-version") continue;
    if (value.is_object() && !value.empty()) {
      print_fields(value, label, out);
      continue;
    }
    std::string text;
    if (value.is_array()) {
      for (const auto& item : value) text += (text.empty() ? "" : " ") + (item.is_string() ? item.get<std::string>() : item.dump());
    } else if (!value.is_object()) {
      text = value.is_string() ? value.get<std::string>() : value.dump();
    }
    out << label << std::string(label.size() < 32 ? 32 - label.size() : 1, ' ') << text << "\n";
  }
}

int run_targets(const Arguments& arguments) {
  const DescriptorSet& descriptors = builtin_descriptors();
  if (arguments.flags.count("--json")) {
    std::cout << targets_to_json(descriptors).dump(2) << "\n";
    return 0;
  }
  for (const auto& target : descriptors.targets()) {
    std::string selected_by = target.platform_default ? "GOOS=" + target.spec.goos + " GOARCH=" + target.spec.goarch : "";
    for (const auto& [name, value] : target.required_environment) selected_by += " " + name + "=" + value;
    std::string name = target.spec.name;
    std::string variant = target.spec.variant;
    std::cout << name << std::string(16 - std::min<std::size_t>(name.size(), 15), ' ') << variant
              << std::string(8 - std::min<std::size_t>(variant.size(), 7), ' ') << target.spec.triple
              << (selected_by.empty() ? "" : "  (" + selected_by + ")") << "\n";
  }
  return 0;
}

int run_resolve(const Arguments& arguments) {
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  std::optional<std::string> output = single(arguments, "--output");
  std::optional<OutputName> name;
  if (output) name = name_output(target.spec, *output);
  if (arguments.flags.count("--json")) {
    json document = target_to_json(target);
    if (name) document["output-file"] = {{"path", name->path}, {"format", to_string(name->format)}};
    std::cout << document.dump(2) << "\n";
  } else {
    print_fields(target_to_json(target), "", std::cout);
    if (name) std::cout << "output-file                     " << name->path << " (" << to_string(name->format) << ")\n";
  }
  return 0;
}

int run_sources(const Arguments& arguments) {
  std::optional<std::string> directory = single(arguments, "--dir");
  if (!directory) throw DriverError("sources: --dir DIR is required (the runtime source directory)");
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  std::vector<SourceDecision> decisions = select_runtime_sources(target, *directory);
  if (arguments.flags.count("--json")) {
    json document = sources_to_json(decisions);
    document["target"] = target.spec.name;
    if (!arguments.flags.count("--explain")) document.erase("decisions");
    std::cout << document.dump(2) << "\n";
  } else if (arguments.flags.count("--explain")) {
    std::cout << "target " << target.spec.name << " (" << target.spec.variant
              << "), tags: " << joined(effective_flags(target.spec).build_tags) << "\n";
    for (const auto& decision : decisions) std::cout << explain(decision) << "\n";
  } else {
    for (const auto& decision : decisions) {
      if (decision.selected) std::cout << decision.file << "\n";
    }
  }
  return 0;
}

int run_cache_key(const Arguments& arguments) {
  std::optional<std::string> root = single(arguments, "--package-root");
  if (!root) throw DriverError("cache-key: --package-root DIR is required");
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  CacheKeyRequest request;
  request.package_root = *root;
  request.files = all(arguments, "--file");
  request.dependency_keys = all(arguments, "--dep-key");
  request.flags = all(arguments, "--flag");
  for (const auto& identity : all(arguments, "--toolchain-id")) {
    auto equals = identity.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw DriverError("cache-key: --toolchain-id takes NAME=VERSION (e.g. clang=19.1.7), not \"" + identity + "\"");
    }
    request.toolchain[identity.substr(0, equals)] = identity.substr(equals + 1);
  }
  CacheKey key = compute_cache_key(target, request);
  if (arguments.flags.count("--explain")) std::cout << canonical_cache_key_encoding(target, request, key.inputs);
  if (arguments.flags.count("--json")) {
    json document = cache_key_to_json(key);
    document["target"] = target.spec.name;
    std::cout << document.dump(2) << "\n";
  } else {
    std::cout << key.hex << "\n";
  }
  return 0;
}

int run_link(const Arguments& arguments) {
#if LLGO_WASM_HAVE_LINK
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  std::optional<std::uint64_t> program_stack_size;
  if (query_sets_stack_size(arguments.query)) {
    program_stack_size = target.spec.capabilities.stacks == StackMode::Shared ? target.spec.default_stack_size
                                                                             : target.spec.separate_stack_size;
  }
  return llgo_wasm::run_link_command(target, arguments.rest, program_stack_size);
#else
  (void)arguments;
  throw DriverError("link: this llgo-wasm was built without the link pipeline (driver/link)");
#endif
}

// `run`: the options before the program are llgo-wasm's, everything from the program on is the
// program's (its --help included).
int run_run(const std::vector<std::string>& rest) {
#if LLGO_WASM_HAVE_LINK
  cli::RunWords words = cli::split_run_words(rest);
  if (std::find_if(words.options.begin(), words.options.end(), [](const std::string& a) { return a == "--help" || a == "-h"; }) !=
      words.options.end()) {
    std::cout << cli::kRunUsage << "\n" << kCommonHelp;
    return 0;
  }
  Arguments arguments = parse_arguments("run", words.options, cli::kRunValueOptions, cli::kRunFlagOptions, false);
  cli::RunRequest request;
  request.query = arguments.query;
  request.target_named = arguments.query.target || arguments.query.goos || arguments.query.goarch;
  request.engine = single(arguments, "--engine");
  request.print_command = arguments.flags.count("--print-command") > 0;
  request.json = arguments.flags.count("--json") > 0;
  request.list_engines = arguments.flags.count("--list-engines") > 0;
  request.program_and_arguments = words.program_and_arguments;
  return cli::run_command(request);
#else
  (void)rest;
  throw DriverError("run: this llgo-wasm was built without the link pipeline (driver/link), which `run` needs");
#endif
}

// The cache commands live in llgo-wasm-cache beside this program (it links libcurl, which this
// static binary cannot); exec replaces this process, so the exit status is the helper's.
int run_cache(const std::vector<std::string>& args) {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw DriverError("cache: cannot find this program's directory: " + error.message());
  std::string helper = (self.parent_path() / "llgo-wasm-cache").string();
  std::vector<char*> argv = {helper.data()};
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (auto& arg : rest) argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(helper.c_str(), argv.data());
  throw DriverError("cache: cannot run " + helper + ": " + std::strerror(errno) +
                    " (it is built and installed beside llgo-wasm)");
}

int run(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_main_help(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "llgo-wasm " << LLGO_WASM_VERSION << "\n";
    return 0;
  }
  const std::string& name = args[0];
  auto command = std::find_if(commands().begin(), commands().end(), [&](const Command& c) { return name == c.name; });
  if (command == commands().end()) {
    std::vector<std::string> names;
    for (const auto& c : commands()) names.push_back(c.name);
    throw DriverError("unknown command \"" + name + "\"; commands: " + joined(names, ", ") + " (see llgo-wasm --help)");
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (name == "cache") return run_cache(args);
  if (name == "run") return run_run(rest);
  bool is_link = name == "link";
  if (!is_link && std::find_if(rest.begin(), rest.end(), [](const std::string& a) { return a == "--help" || a == "-h"; }) != rest.end()) {
    std::cout << command->usage << "\n" << kCommonHelp;
    return 0;
  }
  if (name == "targets") return run_targets(parse_arguments(name, rest, {}, {"--json"}, false));
  if (name == "resolve") return run_resolve(parse_arguments(name, rest, {"--output"}, {"--json"}, false));
  if (name == "sources") return run_sources(parse_arguments(name, rest, {"--dir"}, {"--json", "--explain"}, false));
  if (name == "cache-key") {
    return run_cache_key(parse_arguments(name, rest, {"--package-root", "--file", "--dep-key", "--toolchain-id", "--flag"},
                                         {"--json", "--explain"}, false));
  }
#if LLGO_WASM_HAVE_LINK
  // emcc's wasm-opt, through the shim a narrowed Emscripten link installs: it needs no target.
  if (is_link && !rest.empty() && rest[0] == llgo_wasm::emscripten_wasm_opt_shim_flag) {
    return llgo_wasm::run_emscripten_wasm_opt_shim(std::vector<std::string>(rest.begin() + 1, rest.end()));
  }
#endif
  return run_link(parse_arguments(name, rest, {}, {}, true));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return run(args);
  } catch (const DriverError& error) {
    std::cerr << "llgo-wasm: " << error.what() << "\n";
    return 2;
  } catch (const json::type_error& error) {
    // 316: JSON strings are UTF-8, so --json cannot print a file name or argument that is not.
    if (error.id != 316) {
      std::cerr << "llgo-wasm: internal error: " << error.what() << "\n";
      return 1;
    }
    std::cerr << "llgo-wasm: --json cannot print a file name or argument that is not valid UTF-8; "
                 "rename the file or drop --json\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "llgo-wasm: internal error: " << error.what() << "\n";
    return 1;
  }
}
