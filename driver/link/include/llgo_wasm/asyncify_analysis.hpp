// Which functions of a linked module can reach an Asyncify switch point, so that Binaryen
// instruments exactly those (docs/link-pipeline.md, "Asyncify narrowed by a call graph").
//
// The call graph has every function of the module (imports first).  Its edges:
//   * direct calls (call, return_call);
//   * indirect calls (call_indirect, call_ref and their return_ forms), resolved by signature:
//     an indirect call of type T may reach every *escaped* function whose signature equals T's
//     (call_indirect traps on any other);
//   * imports that call back into the module's table (Emscripten's invoke_*: JavaScript calls
//     the table entry it is given with whatever arguments) reach every escaped function.
// A function has escaped when a reference to it can exist at run time: it is in an element
// segment (active, passive or declarative: table.init, table.set, table.grow and table.fill
// can only store references that exist), it is a ref.func operand, or, when the host can hand
// the module references (a table is imported or exported, or a reference type crosses an
// import, an export or a global), it is exported, unless the host only ever holds wrappers of
// the exports (`host_holds_only_export_wrappers`: Emscripten's Asyncify glue).  Functions the
// host itself puts in a shared table are host code: like every import not listed as a switch
// point, they do not switch.
//
// Switch points are the imports listed in `switch_imports` (Binaryen's asyncify.start_unwind
// and asyncify.stop_rewind always are).  A function can switch when an edge leads from it to a
// switch point or to a function that can switch, except Binaryen's "bottom-most runtime": a
// function that calls asyncify.stop_unwind or asyncify.start_rewind is never instrumented and
// does not propagate (exactly as Binaryen's own analysis).
//
// Names: Binaryen's lists name functions the way Binaryen names them when it reads the module.
// Only names that both pinned Binaryens keep verbatim are listed (unique in the name section,
// plain characters, not a possible de-duplication of another name); a function without such
// a name is left to Binaryen's own analysis, which can only instrument more, never less.
// Limits: GC types (rec groups, subtyping) are not modelled: analyse_asyncify throws.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {

struct AsyncifyAnalysisError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct AsyncifyAnalysisOptions {
  // "module.name" patterns ('*' matches any run of characters, as in Binaryen's lists) of the
  // imports that may change the Asyncify state.  asyncify.start_unwind/stop_rewind are implied.
  std::vector<std::string> switch_imports;
  // Patterns of imports that call a table entry chosen by their first argument (invoke_*).
  std::vector<std::string> table_call_imports;
  // Patterns of defined functions declared never to switch (a remove-list the caller was given):
  // like Binaryen, the walk neither marks them nor goes on to their callers through them.
  std::vector<std::string> never_switch;
  // True when the host never holds a reference to an exported function itself, only host
  // functions that call it, so whatever the host stores in a shared table is host code and an
  // export escapes only as any other function does (element segments, ref.func).  So it is
  // under emcc's -sASYNCIFY=1 glue: Asyncify.instrumentWasmExports replaces every exported
  // function by a JavaScript wrapper before any other JavaScript sees the exports (and
  // Emscripten's Asyncify needs every entry to go through those wrappers).
  bool host_holds_only_export_wrappers = false;
};

struct AsyncifyAnalysis {
  uint32_t defined_functions = 0;
  std::vector<uint32_t> can_switch;    // defined functions (function index space), ascending
  std::vector<uint32_t> start_switch;  // of those, the callers of a switch import (Binaryen's
                                       // "top-most runtime": listed, but not instrumented)
  std::vector<uint32_t> switch_imports_present;  // imported functions that are switch points
  std::vector<std::string> switch_imports_called;  // "module.name" of those the module calls
                                                   // (directly, or through the table)
  std::vector<std::string> binaryen_names;       // per function index: Binaryen's name, "" if not safely known
  bool has_asyncify_imports = false;             // the module imports asyncify.*

  bool instruments_nothing() const { return can_switch.empty() && !has_asyncify_imports; }
  // Non-switching defined functions that have a safe name: Binaryen's remove-list.
  std::vector<std::string> removable_names() const;
  // Names (or "function N") of the functions that can switch, for --print-asyncify-list.
  std::vector<std::string> can_switch_names() const;
  // Non-switching defined functions Binaryen must decide for itself (no safe name).
  uint32_t unnamed_non_switching() const;
};

AsyncifyAnalysis analyse_asyncify(const WasmModuleSummary& module, const AsyncifyAnalysisOptions& options);

// Binaryen's String::wildcardMatch: '*' matches any sequence of characters.
bool asyncify_pattern_matches(const std::string& pattern, const std::string& value);

// The names Binaryen 120 and 131 give the module's functions, where both agree and the name
// survives Binaryen's list parsing unchanged; "" otherwise.  Indexed by function index.  A
// module without function names gets Binaryen's numbering ("0", "1", ... for defined functions).
std::vector<std::string> binaryen_function_names(const WasmModuleSummary& module);

}  // namespace llgo_wasm
