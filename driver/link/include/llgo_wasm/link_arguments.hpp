// Parses the argument list of `llgo-wasm link`, which is also used as CMake's link rule, so it
// accepts compiler-driver style link lines: objects and archives, `-o OUT`, `-l`/`-L`,
// `-Wl,...`, `-Xlinker X`, `-mllvm X` and any other flag (passed through to clang).  A `--`
// separates the CLI's common options from the link line (see cmake/LlgoWasmLink.cmake) and is
// otherwise ignored.
// Limits: a flag the parser does not know is assumed to take no separate value.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace llgo_wasm {

enum class LinkOutputKind { executable, archive, shared };

// How much of the module Asyncify instruments: the functions the call-graph analysis finds
// can reach a switch point (narrowed), Binaryen's whole-module default (wide), or nothing
// (none: no Asyncify at all, e.g. a baseline for benchmarks).
enum class AsyncifyInstrumentation { narrowed, wide, none };

const char* to_string(LinkOutputKind kind);

// Thrown for malformed link arguments (exit status 2).
struct LinkUsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LinkArguments {
  LinkOutputKind kind = LinkOutputKind::executable;
  std::string output_path;                  // -o
  std::vector<std::string> inputs;          // objects, archives (positional arguments)
  // What the link tool gets, in the original order: inputs and clang flags (-l, -L, -Wl,...),
  // without driver options, -o and -O*.
  std::vector<std::string> link_line;
  std::vector<std::string> stripped_optimization_flags;  // -O* removed from the clang line
  std::optional<std::string> compiler;      // --cc
  std::optional<std::string> sysroot;       // --sysroot (also accepted as a clang flag)
  std::vector<std::string> asyncify_imports;  // --asyncify-import MODULE.NAME (extra switch points)
  AsyncifyInstrumentation asyncify = AsyncifyInstrumentation::narrowed;  // --asyncify MODE
  bool print_asyncify_list = false;         // --print-asyncify-list: the functions that can switch
  // --stack-check on|off: a WebAssembly executable gets the stack-overflow check
  // (stack_check.hpp); off only for baselines (bench/) and for keeping DWARF.
  bool stack_check = true;
  // Not parsed here: the stack size the link's query asked for (--stack-size,
  // LLGO_WASM_STACK_SIZE), which the link compiles into the program (llgo_stack_size).
  std::optional<std::uint64_t> program_stack_size;
  bool dry_run = false;
  bool json = false;
  bool verbose = false;
  bool print_wasm_opt = false;
  bool help = false;
};

LinkArguments parse_link_arguments(const std::vector<std::string>& args);

// True for -O, -O0..-O4, -Os, -Oz, -Og, -Ofast: the flags that make clang run its own
// hidden wasm-opt at link time when one is on PATH.
bool is_optimization_flag(const std::string& arg);

}  // namespace llgo_wasm
