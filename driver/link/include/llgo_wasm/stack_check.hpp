// The stack-overflow check the link adds to a WebAssembly module that links llgo-wasm's runtime
// (docs/link-pipeline.md, "The stack check"; runtime/src/wasmcontext_stack_guard.h).
//
// WebAssembly has no guard pages: a C stack overflow writes below the stack's limit, into memory
// that belongs to someone else, until something notices. So before every write of the stack
// pointer global (__stack_pointer) that can lower it, the check compares the new value with the
// runtime's guard global (__llgo_stack_guard: the running stack's limit plus LLVM's 128-byte red
// zone) and calls the runtime's llgo_stack_overflow_trap(new value) when it is below: the frame
// is refused before a byte of it is written, and the runtime reports Go's stack overflow.
//
//   value                       value
//   global.set $sp      ->      local.tee $t  global.get $guard  <ptr>.lt_u
//                               if  local.get $t  call $trap  end
//                               local.get $t  global.set $sp
//
// A write whose value is `x + C` with a positive constant C (LLVM's epilogues) cannot lower the
// stack pointer below a value already checked and is left alone; so is the trap itself. Binaryen's
// own --stack-check pass does the same job but makes its own globals, which the runtime cannot
// move when it switches stacks, and checks the stack's top bound as well (twice the code).
// The rewrite runs on the module the linker wrote, before Asyncify and the optimiser, which
// then treat the check as ordinary code (the trap is on the descriptors' asyncify-removelist).
// It changes code offsets, so DWARF sections (.debug_*) would no longer describe the code: they
// are removed, and the report says so. A custom section "llgo.stack_check" marks a checked module,
// which is never checked twice. A module without the runtime's guard global and trap (a program
// that does not link the runtime) is left as it is.
// Limits: the module's types must be plain function types (GC types are refused with a reason);
// the globals and the trap are found by name (the name section, which wasm-ld writes). A module
// with no names at all cannot be told apart from one without the runtime: the report says so
// (names_missing), and the link warns (stack_check_needs_names, below) rather than leave a program
// that may link the runtime without its check and without a word.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace llgo_wasm {

inline constexpr const char* kStackPointerGlobal = "__stack_pointer";
inline constexpr const char* kStackGuardGlobal = "__llgo_stack_guard";
inline constexpr const char* kStackOverflowTrap = "llgo_stack_overflow_trap";
inline constexpr const char* kStackCheckSection = "llgo.stack_check";

struct StackCheckReport {
  bool instrumented = false;    // the module was rewritten (a check added)
  std::string skipped_reason;   // when not: why (no runtime guard, already checked, ...)
  bool names_missing = false;   // not rewritten because the module has no names to find them by
  unsigned functions = 0;       // functions with at least one check
  unsigned checks = 0;          // writes of the stack pointer checked
  unsigned restores = 0;        // writes left alone (x + positive constant)
  unsigned dropped_sections = 0;  // DWARF custom sections removed
  std::size_t bytes_before = 0;
  std::size_t bytes_after = 0;
  std::string describe() const;  // one line for `llgo-wasm link -v`
};

// Adds the check to `module`; `out` receives the rewritten module, or a copy when nothing was
// done (then skipped_reason says why). Throws WasmDecodeError on a module it cannot read.
StackCheckReport add_stack_check(const std::vector<uint8_t>& module, std::vector<uint8_t>& out);

// The warning a link prints when the module it must check has no names (report.names_missing): why
// the check did not run, what that may mean, and how to fix the link.
std::string stack_check_needs_names(const std::string& module);

// The same from file to file (`out` may equal `in`). Throws WasmDecodeError, or
// std::runtime_error when a file cannot be read or written.
StackCheckReport add_stack_check_file(const std::string& in, const std::string& out);

}  // namespace llgo_wasm
