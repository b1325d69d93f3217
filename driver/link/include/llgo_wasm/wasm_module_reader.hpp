// A small reader for WebAssembly binary modules: imports, memories, exports, function names,
// and an opcode walk over every function body that records exception-handling instructions
// (legacy try/catch/catch_all/delegate/rethrow versus try_table/throw_ref) and stack-switching
// ones (cont.new, resume, suspend, ...), and the facts a call-graph analysis needs
// (asyncify_analysis.hpp): function types, direct and indirect calls, and every place a function
// reference is made (elem segments, ref.func, tables and reference types shared with the host).
// Limits: decodes the MVP, sign-extension, saturating conversions, bulk memory, reference
// types, typed function references, tail calls, SIMD (incl. relaxed), threads/atomics, both EH
// encodings and stack switching; a GC (0xfb) or other unknown opcode is reported as a decode
// error rather than guessed past. The type section is read for plain function types only (a
// continuation or GC type stops it, flagged); the tag section is not read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace llgo_wasm {

struct WasmDecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class WasmExternalKind : uint8_t { function = 0, table = 1, memory = 2, global = 3, tag = 4 };
const char* to_string(WasmExternalKind kind);

struct WasmLimits {
  uint64_t minimum = 0;
  std::optional<uint64_t> maximum;
  bool shared = false;
  bool memory64 = false;
};

struct WasmImport {
  std::string module;
  std::string name;
  WasmExternalKind kind = WasmExternalKind::function;
  std::optional<WasmLimits> memory_limits;  // kind == memory
};

struct WasmExport {
  std::string name;
  WasmExternalKind kind = WasmExternalKind::function;
  uint32_t index = 0;
};

// One occurrence of an exception-handling or stack-switching instruction.
struct WasmInstructionSite {
  uint8_t opcode = 0;
  uint32_t function_index = 0;  // in the function index space (imports first)
  uint64_t file_offset = 0;
};

// The calls one defined function makes.
struct WasmFunctionCalls {
  std::vector<uint32_t> direct;          // call, return_call: callee function indices
  std::vector<uint32_t> indirect_types;  // call_indirect, call_ref and their return_ forms: type index
};

struct WasmModuleSummary {
  std::vector<WasmImport> imports;
  std::vector<WasmLimits> defined_memories;
  std::vector<WasmExport> exports;
  uint32_t imported_function_count = 0;
  uint32_t defined_function_count = 0;
  std::vector<WasmInstructionSite> legacy_eh_sites;  // try, catch, catch_all, delegate, rethrow
  std::vector<WasmInstructionSite> stack_switching_sites;  // cont.new, suspend, resume, ...
  uint64_t try_table_count = 0;
  uint64_t throw_ref_count = 0;
  uint64_t instruction_count = 0;
  std::vector<std::pair<uint32_t, std::string>> function_names;  // from the "name" section, in its order
  std::vector<std::pair<uint32_t, std::string>> global_names;    // its global names (subsection 7)
  std::vector<uint8_t> global_value_types;  // per global index (imports first): the value type's first byte
  uint32_t imported_global_count = 0;
  std::vector<uint32_t> type_param_counts;  // per type index read (plain function types)

  // Call-graph facts.  A signature is the encoded params and results of a plain function type;
  // two types with equal signatures are the same type for call_indirect's check.
  std::vector<std::string> type_signatures;       // per type index ("" if not a function type)
  std::vector<bool> type_has_reference;           // per type index: a param or result is a reference
  bool has_non_function_types = false;            // GC types, rec groups or subtyping were seen
  std::vector<uint32_t> function_type_indices;    // per function index (imports first)
  std::vector<WasmFunctionCalls> function_calls;  // per defined function
  std::vector<uint32_t> referenced_functions;     // elem segment entries and ref.func operands
  std::vector<bool> global_is_reference;          // per global index (imports first)
  bool tables_shared_with_host = false;           // a table is imported or exported
  std::optional<uint32_t> start_function;

  std::string function_name(uint32_t function_index) const;  // "" when unnamed
};

WasmModuleSummary read_wasm_module(const std::vector<uint8_t>& bytes);

// One instruction of a function body, for a rewriter (stack_check.hpp): its opcode byte (0xfc,
// 0xfd, 0xfe: a prefix), where it starts and ends in the module's bytes, its first index
// immediate (local, global, function, type, label, table, tag) and, for i32.const and
// i64.const, the constant. local_count and locals_end describe the body's local declarations.
struct WasmInstruction {
  uint8_t opcode = 0;
  size_t begin = 0;
  size_t end = 0;
  uint64_t index = 0;
  int64_t constant = 0;
  uint64_t local_count = 0;
  size_t locals_end = 0;
};

// Decodes the function body at [begin, end) of `bytes` (its local declarations, then its
// instructions) and calls `visit` for every instruction in order. Throws WasmDecodeError.
void walk_wasm_function_body(const std::vector<uint8_t>& bytes, size_t begin, size_t end, uint32_t function_index,
                             const std::function<void(const WasmInstruction&)>& visit);
WasmModuleSummary read_wasm_module_file(const std::string& path);

// "try", "catch", ... for the EH opcodes, "cont.new", "resume", ... for the stack-switching
// ones; "0x.." otherwise.
std::string exception_opcode_name(uint8_t opcode);

}  // namespace llgo_wasm
