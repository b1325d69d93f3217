// `llgo-wasm link`: argument parsing, tool discovery, planning, dry-run printing and execution.
#include "llgo_wasm/link_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <random>
#include <unistd.h>

#include "llgo_wasm/emscripten_asyncify.hpp"
#include "llgo_wasm/link_arguments.hpp"
#include "llgo_wasm/link_executor.hpp"
#include "llgo_wasm/link_plan.hpp"
#include "llgo_wasm/llgo_wasm_root.hpp"
#include "llgo_wasm/program_merge.hpp"
#include "llgo_wasm/wasm_opt_discovery.hpp"

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;

// --cc for any target; $CC only for a native target, since it names the host's C compiler
// (CC=gcc must not turn a wasm link into `gcc --target=wasm32-wasi`); else the compiler this
// kind of target is built with.
std::string choose_compiler(const TargetSpec& spec, const LinkArguments& arguments,
                            const EnvironmentLookup& environment) {
  if (arguments.compiler) return *arguments.compiler;
  const bool native = !triple_is_wasm(spec.triple);
  if (auto cc = environment("CC"); cc && native) return *cc;
  if (triple_is_emscripten(spec.triple)) return "emcc";
  if (native) return "cc";
  for (const char* name : {"clang-19", "clang"}) {
    if (auto found = find_on_path(name, environment)) return *found;
  }
  return "clang";
}

// llvm-ar next to the compiler, then llvm-ar-19 / llvm-ar on PATH, then $AR.
std::string choose_archiver(const std::string& compiler, const EnvironmentLookup& environment) {
  if (auto ar = environment("AR")) return *ar;
  fs::path compiler_path(compiler);
  if (compiler_path.has_parent_path()) {
    std::string suffix;
    std::string name = compiler_path.filename().string();
    if (auto dash = name.rfind('-'); dash != std::string::npos && name.rfind("clang-", 0) == 0) suffix = name.substr(dash);
    for (const std::string& candidate : {"llvm-ar" + suffix, std::string("llvm-ar")}) {
      fs::path sibling = compiler_path.parent_path() / candidate;
      if (access(sibling.c_str(), X_OK) == 0) return sibling.string();
    }
  }
  for (const char* name : {"llvm-ar-19", "llvm-ar"}) {
    if (auto found = find_on_path(name, environment)) return *found;
  }
  return "llvm-ar";
}

// $WASI_SYSROOT, $WASI_SDK_PATH/share/wasi-sysroot, then the setup folder's wasi-sysroot.
std::optional<std::string> choose_wasi_sysroot(const EnvironmentLookup& environment, std::vector<std::string>& tried) {
  std::vector<std::string> candidates;
  if (auto explicit_root = environment("WASI_SYSROOT")) candidates.push_back(*explicit_root);
  if (auto sdk = environment("WASI_SDK_PATH")) candidates.push_back(*sdk + "/share/wasi-sysroot");
  if (auto setup = project_toolchain_dir(environment)) candidates.push_back(*setup + "/wasi-sysroot");
  for (const auto& candidate : candidates) {
    std::error_code ignored;
    if (fs::is_directory(fs::path(candidate) / "lib", ignored)) return candidate;
    tried.push_back(candidate);
  }
  return std::nullopt;
}

std::string random_token() {
  std::random_device device;
  std::uniform_int_distribution<unsigned> distribution(0, 0xffffff);
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%06x", distribution(device));
  return buffer;
}

int print_wasm_opt(const LinkArguments& arguments, const EnvironmentLookup& environment) {
  try {
    WasmOptTool tool = discover_wasm_opt(environment);
    if (arguments.json) {
      std::cout << nlohmann::json{{"path", tool.path}, {"source", tool.source}, {"version", tool.version},
                                  {"version_string", tool.version_string}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << tool.version_string << "\n";
      if (arguments.verbose) std::cerr << "llgo-wasm link: wasm-opt from " << tool.source << ": " << tool.path << "\n";
    }
    return 0;
  } catch (const WasmOptDiscoveryError& error) {
    std::cerr << "llgo-wasm link: " << error.what() << "\n";
    return 1;
  }
}

// The input that -o names too, if any: linking would replace it with its own output. Compared as
// written (normalised) and as files (a link or another spelling of the same file).
std::optional<std::string> input_named_as_output(const LinkArguments& arguments) {
  const fs::path output = fs::path(arguments.output_path).lexically_normal();
  for (const auto& input : arguments.inputs) {
    std::error_code error;
    if (fs::path(input).lexically_normal() == output || fs::equivalent(input, arguments.output_path, error)) return input;
  }
  return std::nullopt;
}

}  // namespace

std::string link_command_usage() {
  return R"(usage: llgo-wasm link [common options] [--dry-run] [--json] [-v] [--kind executable|archive|shared]
                      [--cc CLANG] [--sysroot DIR] [--asyncify narrowed|wide|none] [--print-asyncify-list]
                      [--asyncify-import MODULE.NAME]... [--stack-check on|off]
                      [--] -o OUTPUT inputs... [clang flags...]
       llgo-wasm link --print-wasm-opt [--json]

Links objects and archives for the resolved target.  P1 executables are linked to a temporary
core module, whose call graph says which functions can reach a switch point; the pinned
wasm-opt instruments only those (--asyncify, then --translate-to-exnref); the result is validated
and renamed onto OUTPUT; nothing is ever half-written.  A context with modules to merge (the
stack-switching context's glue) gets wasm-merge and a wasm-opt step without Asyncify instead.
-O flags are removed from the clang line (clang would run its own hidden wasm-opt) and passed to
the wasm-opt step; without any -O the target's default level applies (descriptor field
link-optimization).  A `--` ends the common options (--target ...), so a CMake link line's own
--target=<triple> reaches clang.
  --dry-run                print the plan instead of running it (--json: as JSON)
  -v, --verbose            one line per step: time, sizes before/after wasm-opt, how many
                           functions Asyncify instruments
  --kind KIND              executable (default), archive (llvm-ar) or shared
  --cc PATH                the compiler driver used to link (default: emcc for Emscripten targets,
                           clang-19 or clang for other wasm targets, $CC or cc for native ones;
                           $CC names the host compiler, so it never applies to a wasm target)
  --sysroot DIR            WASI sysroot (default: $WASI_SYSROOT, $WASI_SDK_PATH/share/wasi-sysroot,
                           the setup folder's wasi-sysroot)
  --asyncify MODE          narrowed (default): instrument the functions that can reach a switch
                           point; wide: Binaryen's default (every import and indirect call may
                           switch); none: no Asyncify (baselines)
  --no-asyncify-narrowing  the same as --asyncify wide
  --print-asyncify-list    after linking, print the functions that can reach a switch point
  --asyncify-import M.N    an extra import that may switch (start an unwind)
  --stack-check on|off     on (default): every write of the stack pointer that can lower it is
                           checked against the running stack's limit, so an overflow is reported
                           (Go's "fatal error: stack overflow") before anything is written past
                           it; off: no check (baselines; it also keeps DWARF, which the check
                           removes since it moves code)
  --stack-size BYTES       (a common option, before --; also LLGO_WASM_STACK_SIZE) this program's
                           goroutine stack size, compiled into it: the shared stack's size with
                           shared stacks, each goroutine's with separate ones
  --print-wasm-opt         print the discovered wasm-opt's exact version (for cache keys) and exit
Environment: WASMOPT, BINARYEN_ROOT, PATH, LLGO_WASM_TOOLCHAIN_DIR choose wasm-opt; CC (native
targets only), AR; LLGO_WASM_ROOT is the llgo-wasm checkout that {root} in the target's flags names
(default for an installed llgo-wasm: <prefix>/share/llgo-wasm, found from this program's location).
)";
}

int run_link_command(const ResolvedTarget& target, const std::vector<std::string>& args,
                     std::optional<std::uint64_t> program_stack_size) {
  LinkArguments arguments;
  try {
    arguments = parse_link_arguments(args);
  } catch (const LinkUsageError& error) {
    std::cerr << "llgo-wasm link: " << error.what() << "\n(see llgo-wasm link --help)\n";
    return 2;
  }
  if (arguments.help) {
    std::cout << link_command_usage();
    return 0;
  }
  if (!arguments.print_wasm_opt) {
    if (auto input = input_named_as_output(arguments)) {
      std::cerr << "llgo-wasm link: -o " << arguments.output_path << " is also an input of the link (" << *input
                << "): linking would replace it; choose another output name\n(see llgo-wasm link --help)\n";
      return 2;
    }
  }
  const EnvironmentLookup environment = process_environment();
  if (arguments.print_wasm_opt) return print_wasm_opt(arguments, environment);
  LinkToolchain toolchain;
  toolchain.llgo_wasm_root = find_llgo_wasm_root(environment);
  if (!toolchain.llgo_wasm_root) {
    std::vector<std::string> root_relative = effective_flags(target.spec).ldflags;
    for (const auto& module : chosen_context_merge(target.spec).modules) root_relative.push_back(module.source);
    for (const auto& flag : root_relative) {
      if (flag.find(kRootPlaceholder) == std::string::npos) continue;
      std::cerr << "llgo-wasm link: target " << target.spec.name << " links with \"" << flag << "\", which names a file of "
                << "llgo-wasm itself; set LLGO_WASM_ROOT to the llgo-wasm checkout (the folder holding runtime/)\n";
      return 2;
    }
  }
  toolchain.compiler = choose_compiler(target.spec, arguments, environment);
  if (arguments.kind == LinkOutputKind::archive) toolchain.archiver = choose_archiver(toolchain.compiler, environment);
  std::vector<std::string> sysroots_tried;
  if (triple_is_wasi(target.spec.triple) && !arguments.sysroot) {
    toolchain.sysroot = choose_wasi_sysroot(environment, sysroots_tried);
  }
  arguments.program_stack_size = program_stack_size;
  if (arguments.kind == LinkOutputKind::executable && target.spec.capabilities.asyncify == AsyncifyMode::Emscripten &&
      (arguments.asyncify == AsyncifyInstrumentation::narrowed || arguments.stack_check)) {
    toolchain.emscripten_binaryen_root = emscripten_binaryen_root(toolchain.compiler);
    toolchain.driver_executable = current_executable();
  }
  std::optional<std::string> wasm_opt_problem;
  std::optional<WasmOptTool> wasm_opt;
  const bool merge = arguments.kind == LinkOutputKind::executable && needs_program_merge(target);
  if (arguments.kind == LinkOutputKind::executable && needs_post_link_wasm_opt(target)) {
    try {
      wasm_opt = discover_wasm_opt(environment, merge ? kMinimumMergeBinaryenVersion : minimum_wasm_opt_version);
      toolchain.wasm_opt = wasm_opt->path;
    } catch (const WasmOptDiscoveryError& error) {
      wasm_opt_problem = error.what();
      toolchain.wasm_opt = "wasm-opt";
    }
  }
  if (merge) {
    // wasm-merge comes from the same Binaryen as wasm-opt.
    std::optional<std::string> wasm_merge = wasm_opt ? binaryen_tool_beside(wasm_opt->path, "wasm-merge") : std::nullopt;
    toolchain.wasm_merge = wasm_merge.value_or("wasm-merge");
    if (wasm_opt && !wasm_merge) {
      wasm_opt_problem = "target " + target.spec.name + " (context " + target.spec.capabilities.context +
                         ") merges modules with Binaryen's wasm-merge, which is not beside " + wasm_opt->path +
                         "; install Binaryen's tools together, or run the project's toolchain setup";
    }
  }

  LinkPlan plan = build_link_plan(target, arguments, toolchain,
                                  TemporaryNaming{static_cast<long>(getpid()), random_token()});
  if (!sysroots_tried.empty() && !toolchain.sysroot) {
    std::string tried;
    for (const auto& path : sysroots_tried) tried += " " + path;
    plan.notes.push_back("no WASI sysroot found (tried:" + tried + "); clang's default is used; pass --sysroot DIR");
  }
  if (wasm_opt) plan.notes.push_back("wasm-opt: " + wasm_opt->version_string + " from " + wasm_opt->source + " (" + wasm_opt->path + ")");

  if (arguments.dry_run) {
    if (wasm_opt_problem) plan.notes.push_back("wasm-opt problem (a real link would fail): " + *wasm_opt_problem);
    if (arguments.json) {
      std::cout << link_plan_to_json(plan).dump(2) << "\n";
    } else {
      std::cout << format_link_plan_text(plan);
    }
    return 0;
  }
  if (wasm_opt_problem) {
    std::cerr << "llgo-wasm link: " << *wasm_opt_problem << "\n";
    return 1;
  }
  if (arguments.verbose) {
    for (const auto& note : plan.notes) std::cerr << "llgo-wasm link: note: " << note << "\n";
  }
  LinkExecutionOptions options;
  options.verbose = arguments.verbose;
  options.show_progress = isatty(STDERR_FILENO) != 0;
  LinkExecutionResult result = execute_link_plan(plan, options, std::cerr);
  if (!result.succeeded) {
    std::cerr << "llgo-wasm link: " << result.error << "\n";
    return 1;
  }
  if (arguments.print_asyncify_list) {
    if (!result.asyncify) {
      std::cerr << "llgo-wasm link: --print-asyncify-list: this link analysed no call graph "
                   "(only executables of Asyncify targets with --asyncify narrowed are analysed)\n";
      return 1;
    }
    for (const auto& name : result.asyncify->can_switch_names) std::cout << name << "\n";
  }
  return 0;
}

}  // namespace llgo_wasm
