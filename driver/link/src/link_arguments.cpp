// Parser for `llgo-wasm link` arguments (see link_arguments.hpp).  Driver options are
// recognised anywhere on the line, because CMake's link rule interleaves them with compiler
// flags; everything else is either an input file or a flag for clang.
#include "llgo_wasm/link_arguments.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace llgo_wasm {
namespace {

// Clang flags whose value is the next argument (when not written joined, e.g. `-L dir`).
constexpr std::array<std::string_view, 24> flags_with_separate_value = {
    "-L",       "-l",      "-Xlinker", "-mllvm",   "-target", "-isysroot", "-z",     "-u",
    "-e",       "-T",      "-I",       "-D",       "-U",      "-include",  "-isystem", "-x",
    "-MF",      "-MT",     "-MQ",      "-Xclang",  "-Xassembler", "--rtlib",
    "-resource-dir", "--target"};

bool takes_separate_value(const std::string& arg) {
  return std::find(flags_with_separate_value.begin(), flags_with_separate_value.end(), arg) !=
         flags_with_separate_value.end();
}

AsyncifyInstrumentation parse_asyncify_mode(const std::string& value) {
  if (value == "narrowed") return AsyncifyInstrumentation::narrowed;
  if (value == "wide") return AsyncifyInstrumentation::wide;
  if (value == "none") return AsyncifyInstrumentation::none;
  throw LinkUsageError("--asyncify '" + value + "' is unknown; use narrowed (the default), wide or none");
}

LinkOutputKind parse_kind(const std::string& value) {
  if (value == "executable") return LinkOutputKind::executable;
  if (value == "archive") return LinkOutputKind::archive;
  if (value == "shared") return LinkOutputKind::shared;
  throw LinkUsageError("--kind '" + value + "' is unknown; use executable, archive or shared");
}

bool parse_on_off(const std::string& option, const std::string& value) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw LinkUsageError(option + " '" + value + "' is unknown; use on or off");
}

}  // namespace

const char* to_string(LinkOutputKind kind) {
  switch (kind) {
    case LinkOutputKind::executable: return "executable";
    case LinkOutputKind::archive: return "archive";
    case LinkOutputKind::shared: return "shared";
  }
  return "?";
}

bool is_optimization_flag(const std::string& arg) {
  if (arg == "-O" || arg == "-Ofast" || arg == "-Os" || arg == "-Oz" || arg == "-Og") return true;
  return arg.size() == 3 && arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '9';
}

LinkArguments parse_link_arguments(const std::vector<std::string>& args) {
  LinkArguments parsed;
  bool output_seen = false;
  auto value_of = [&](size_t& i, const std::string& option) -> std::string {
    if (i + 1 >= args.size()) throw LinkUsageError(option + " needs a value");
    return args[++i];
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      // Where the CLI stops reading its common options (--target, ...): the link line that
      // follows may carry clang's own --target=.  Parsing goes on unchanged.
      continue;
    }
    if (arg == "--dry-run") {
      parsed.dry_run = true;
    } else if (arg == "--json") {
      parsed.json = true;
    } else if (arg == "-v" || arg == "--verbose") {
      parsed.verbose = true;
    } else if (arg == "-h" || arg == "--help") {
      parsed.help = true;
    } else if (arg == "--print-wasm-opt") {
      parsed.print_wasm_opt = true;
    } else if (arg == "--no-asyncify-narrowing") {
      parsed.asyncify = AsyncifyInstrumentation::wide;
    } else if (arg == "--asyncify") {
      parsed.asyncify = parse_asyncify_mode(value_of(i, arg));
    } else if (arg.starts_with("--asyncify=")) {
      parsed.asyncify = parse_asyncify_mode(arg.substr(11));
    } else if (arg == "--stack-check") {
      parsed.stack_check = parse_on_off(arg, value_of(i, arg));
    } else if (arg.starts_with("--stack-check=")) {
      parsed.stack_check = parse_on_off("--stack-check", arg.substr(14));
    } else if (arg == "--print-asyncify-list") {
      parsed.print_asyncify_list = true;
    } else if (arg == "--kind") {
      parsed.kind = parse_kind(value_of(i, arg));
    } else if (arg.starts_with("--kind=")) {
      parsed.kind = parse_kind(arg.substr(7));
    } else if (arg == "--cc") {
      parsed.compiler = value_of(i, arg);
    } else if (arg.starts_with("--cc=")) {
      parsed.compiler = arg.substr(5);
    } else if (arg == "--asyncify-import") {
      parsed.asyncify_imports.push_back(value_of(i, arg));
    } else if (arg.starts_with("--asyncify-import=")) {
      parsed.asyncify_imports.push_back(arg.substr(18));
    } else if (arg == "--sysroot") {
      parsed.sysroot = value_of(i, arg);
    } else if (arg.starts_with("--sysroot=")) {
      parsed.sysroot = arg.substr(10);
    } else if (arg == "-o") {
      if (output_seen) throw LinkUsageError("-o given twice ('" + parsed.output_path + "')");
      parsed.output_path = value_of(i, arg);
      output_seen = true;
    } else if (arg.starts_with("-o") && arg.size() > 2 && arg[2] != '-') {
      if (output_seen) throw LinkUsageError("-o given twice ('" + parsed.output_path + "')");
      parsed.output_path = arg.substr(2);
      output_seen = true;
    } else if (is_optimization_flag(arg)) {
      // Never on the clang link line: with -O clang runs whatever wasm-opt is on PATH before
      // our pinned Asyncify step (and Debian's old one breaks legacy EH).
      parsed.stripped_optimization_flags.push_back(arg);
    } else if (!arg.empty() && arg[0] == '-') {
      parsed.link_line.push_back(arg);
      if (takes_separate_value(arg)) parsed.link_line.push_back(value_of(i, arg));
    } else if (arg.empty()) {
      throw LinkUsageError("empty argument on the link line");
    } else {
      parsed.inputs.push_back(arg);
      parsed.link_line.push_back(arg);
    }
  }
  if (!parsed.help && !parsed.print_wasm_opt) {
    if (!output_seen || parsed.output_path.empty()) {
      throw LinkUsageError("no output: pass -o OUTPUT");
    }
    if (parsed.inputs.empty() && parsed.kind == LinkOutputKind::archive) {
      throw LinkUsageError("no inputs for the archive '" + parsed.output_path + "'");
    }
  }
  return parsed;
}

}  // namespace llgo_wasm
