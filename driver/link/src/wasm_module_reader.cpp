// WebAssembly binary reader (see wasm_module_reader.hpp).  Section layout and opcode
// immediates follow the WebAssembly core spec 2.0 plus the threads, SIMD, tail-call,
// exception-handling (legacy and exnref) and stack-switching proposals.
#include "llgo_wasm/wasm_module_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace llgo_wasm {
namespace {

std::string hex(uint64_t value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
  return buffer;
}

class ByteReader {
 public:
  ByteReader(const std::vector<uint8_t>& bytes, size_t begin, size_t end)
      : bytes_(bytes), position_(begin), end_(end) {}

  size_t position() const { return position_; }
  bool at_end() const { return position_ >= end_; }
  size_t remaining() const { return end_ - position_; }

  uint8_t byte() {
    if (position_ >= end_) fail("unexpected end of data");
    return bytes_[position_++];
  }
  void skip(size_t count) {
    if (count > end_ - position_) fail("unexpected end of data");
    position_ += count;
  }
  uint8_t peek() const {
    if (position_ >= end_) fail("unexpected end of data");
    return bytes_[position_];
  }
  // uN and sN as the core spec defines them (N <= 64): at most ceil(N/7) bytes, and in the
  // last possible byte the bits above N must be zero (unsigned) or copies of the sign bit
  // (signed). Engines reject anything else, so this reader does too.
  uint64_t leb(unsigned bits, bool is_signed) {
    const unsigned max_bytes = (bits + 6) / 7;
    auto type = [&] { return (is_signed ? "s" : "u") + std::to_string(bits); };
    uint64_t result = 0;
    for (unsigned index = 0, shift = 0;; ++index, shift += 7) {
      uint8_t b = byte();
      if (index == max_bytes - 1) {
        if (b & 0x80) fail("integer representation too long (" + type() + ")");
        unsigned value_bits = bits - shift;  // 1..7; for sN the highest is the sign
        unsigned above = is_signed ? (b & 0x7fu) >> (value_bits - 1) : (b & 0x7fu) >> value_bits;
        if (above != 0 && !(is_signed && above == (0x7fu >> (value_bits - 1)))) fail("integer too large (" + type() + ")");
      }
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (is_signed && shift + 7 < 64 && (b & 0x40)) result |= ~uint64_t{0} << (shift + 7);
        return result;
      }
    }
  }
  uint64_t unsigned_leb(unsigned bits) { return leb(bits, false); }
  uint32_t u32() { return static_cast<uint32_t>(unsigned_leb(32)); }
  int64_t signed_leb(unsigned bits) { return static_cast<int64_t>(leb(bits, true)); }
  std::string name() {
    uint32_t length = u32();
    if (length > end_ - position_) fail("name runs past the end of its section");
    std::string text(bytes_.begin() + static_cast<long>(position_), bytes_.begin() + static_cast<long>(position_ + length));
    position_ += length;
    return text;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw WasmDecodeError(what + " at offset " + hex(position_));
  }

 private:
  const std::vector<uint8_t>& bytes_;
  size_t position_;
  size_t end_;
};

// A heap type is either a one-byte abstract type (negative s33) or a type index.
void skip_heap_type(ByteReader& in) { in.signed_leb(33); }

// Reads a value type; appends a canonical spelling to `signature` when given.  True when a
// value of the type may be a function reference (funcref, or a typed (ref [null] ht)).
bool read_value_type(ByteReader& in, std::string* signature = nullptr) {
  uint8_t type = in.byte();
  if (signature) signature->push_back(static_cast<char>(type));
  if (type == 0x63 || type == 0x64) {  // (ref null ht) / (ref ht)
    int64_t heap_type = in.signed_leb(33);
    if (signature) *signature += std::to_string(heap_type) + ";";
    return true;
  }
  return type == 0x70;
}

void skip_value_type(ByteReader& in) { read_value_type(in); }

void skip_block_type(ByteReader& in) {
  uint8_t first = in.peek();
  if (first == 0x63 || first == 0x64) {  // (ref null ht) / (ref ht)
    in.byte();
    skip_heap_type(in);
    return;
  }
  // Empty (0x40) and value types are single negative bytes; anything else is an s33 type index.
  size_t start = in.position();
  if (in.signed_leb(33) < 0 && in.position() - start != 1) in.fail("invalid block type");
}

void skip_memarg(ByteReader& in) {
  uint32_t alignment = in.u32();
  if (alignment & 0x40) in.u32();  // multi-memory: explicit memory index
  in.unsigned_leb(64);             // offset (u64 for memory64)
}

WasmLimits read_limits(ByteReader& in) {
  uint8_t flags = in.byte();
  if (flags > 0x07) in.fail("unknown limits flags " + hex(flags));
  WasmLimits limits;
  limits.shared = (flags & 0x02) != 0;
  limits.memory64 = (flags & 0x04) != 0;
  limits.minimum = in.unsigned_leb(limits.memory64 ? 64 : 32);
  if (flags & 0x01) limits.maximum = in.unsigned_leb(limits.memory64 ? 64 : 32);
  return limits;
}

// cont.new, cont.bind, suspend, resume, resume_throw, switch (the stack-switching proposal).
bool is_stack_switching_opcode(uint8_t opcode) { return opcode >= 0xe0 && opcode <= 0xe5; }

// resume and resume_throw: a vector of handlers, (on $tag $label) or (on $tag switch).
void skip_resume_handlers(ByteReader& in) {
  uint32_t handlers = in.u32();
  for (uint32_t i = 0; i < handlers; ++i) {
    uint8_t kind = in.byte();
    if (kind == 0x00) { in.u32(); in.u32(); }
    else if (kind == 0x01) { in.u32(); }
    else in.fail("unknown resume handler kind " + hex(kind));
  }
}

// A constant expression (global initialiser, segment offset, element expression) up to its
// `end`; records ref.func operands.
void read_constant_expression(ByteReader& in, WasmModuleSummary& summary) {
  for (;;) {
    uint8_t opcode = in.byte();
    switch (opcode) {
      case 0x0b: return;
      case 0x41: in.signed_leb(32); break;
      case 0x42: in.signed_leb(64); break;
      case 0x43: in.skip(4); break;
      case 0x44: in.skip(8); break;
      case 0x23: in.u32(); break;                                        // global.get
      case 0xd0: skip_heap_type(in); break;                              // ref.null
      case 0xd2: summary.referenced_functions.push_back(in.u32()); break;  // ref.func
      case 0x6a: case 0x6b: case 0x6c: case 0x7c: case 0x7d: case 0x7e: break;  // extended constants
      case 0xfd:
        if (in.u32() != 0x0c) in.fail("unknown SIMD opcode in a constant expression");
        in.skip(16);  // v128.const
        break;
      default: in.fail("cannot decode opcode " + hex(opcode) + " in a constant expression");
    }
  }
}

bool is_legacy_exception_opcode(uint8_t opcode) {
  return opcode == 0x06 || opcode == 0x07 || opcode == 0x09 || opcode == 0x18 || opcode == 0x19;
}

void skip_prefixed_fc(ByteReader& in) {
  uint32_t sub = in.u32();
  if (sub <= 7) return;  // saturating truncations
  switch (sub) {
    case 8: in.u32(); in.u32(); return;   // memory.init data, memory
    case 9: in.u32(); return;             // data.drop
    case 10: in.u32(); in.u32(); return;  // memory.copy
    case 11: in.u32(); return;            // memory.fill
    case 12: in.u32(); in.u32(); return;  // table.init elem, table
    case 13: in.u32(); return;            // elem.drop
    case 14: in.u32(); in.u32(); return;  // table.copy
    case 15: case 16: case 17: in.u32(); return;  // table.grow/size/fill
    default: in.fail("unknown 0xfc opcode " + std::to_string(sub));
  }
}

void skip_prefixed_simd(ByteReader& in) {
  uint32_t sub = in.u32();
  if (sub <= 0x0b) { skip_memarg(in); return; }                 // v128.load*, v128.store
  if (sub == 0x0c || sub == 0x0d) { in.skip(16); return; }      // v128.const, i8x16.shuffle
  if (sub >= 0x15 && sub <= 0x22) { in.byte(); return; }        // extract/replace lane
  if (sub >= 0x54 && sub <= 0x5b) { skip_memarg(in); in.byte(); return; }  // load/store lane
  if (sub == 0x5c || sub == 0x5d) { skip_memarg(in); return; }  // load32/64_zero
  if (sub <= 0x113) return;                                     // the rest (incl. relaxed SIMD) take none
  in.fail("unknown SIMD opcode " + std::to_string(sub));
}

void skip_prefixed_atomic(ByteReader& in) {
  uint32_t sub = in.u32();
  if (sub == 0x03) { in.byte(); return; }  // atomic.fence
  if (sub <= 0x02 || (sub >= 0x10 && sub <= 0x4e)) { skip_memarg(in); return; }
  in.fail("unknown atomic opcode " + std::to_string(sub));
}

// One decoded instruction: the opcode byte (0xfc, 0xfd, 0xfe: a prefix, whose sub-opcode is not
// kept), where it starts, its first index immediate (local, global, function, type, label,
// table...) and, for i32.const and i64.const, its value.
struct Decoded {
  uint8_t opcode = 0;
  size_t begin = 0;
  uint64_t index = 0;
  int64_t constant = 0;
};

// Decodes the next instruction of a function body, immediates included.
void decode_instruction(ByteReader& in, uint32_t function_index, Decoded& d) {
  d.begin = in.position();
  d.opcode = in.byte();
  d.index = 0;
  d.constant = 0;
  switch (d.opcode) {
    case 0x00: case 0x01: case 0x05: case 0x0a: case 0x0b: case 0x0f: case 0x19: case 0x1a: case 0x1b:
    case 0xd1: case 0xd3: case 0xd4:
      break;
    case 0x02: case 0x03: case 0x04: case 0x06: skip_block_type(in); break;
    case 0x07: case 0x08: case 0x09: case 0x0c: case 0x0d: case 0x18: case 0x20: case 0x21:
    case 0x22: case 0x23: case 0x24: case 0x25: case 0x26: case 0x3f: case 0x40: case 0xd5:
    case 0xd6: case 0x10: case 0x12: case 0x14: case 0x15: case 0xd2:
      d.index = in.u32();
      break;
    case 0x0e: {  // br_table
      uint32_t count = in.u32();
      for (uint32_t i = 0; i <= count; ++i) in.u32();
      break;
    }
    case 0x11: case 0x13: d.index = in.u32(); in.u32(); break;  // call_indirect type, table
    case 0x1c: {  // select with types
      uint32_t count = in.u32();
      for (uint32_t i = 0; i < count; ++i) skip_value_type(in);
      break;
    }
    case 0x1f: {  // try_table
      skip_block_type(in);
      uint32_t clauses = in.u32();
      for (uint32_t i = 0; i < clauses; ++i) {
        uint8_t kind = in.byte();
        if (kind == 0x00 || kind == 0x01) { in.u32(); in.u32(); }
        else if (kind == 0x02 || kind == 0x03) { in.u32(); }
        else in.fail("unknown try_table catch kind " + hex(kind));
      }
      break;
    }
    case 0xe0: case 0xe2: d.index = in.u32(); break;                          // cont.new type, suspend tag
    case 0xe1: case 0xe5: d.index = in.u32(); in.u32(); break;                // cont.bind, switch
    case 0xe3: d.index = in.u32(); skip_resume_handlers(in); break;           // resume type, handlers
    case 0xe4: d.index = in.u32(); in.u32(); skip_resume_handlers(in); break; // resume_throw type tag, handlers
    case 0x41: d.constant = in.signed_leb(32); break;
    case 0x42: d.constant = in.signed_leb(64); break;
    case 0x43: in.skip(4); break;
    case 0x44: in.skip(8); break;
    case 0xd0: skip_heap_type(in); break;
    case 0xfc: skip_prefixed_fc(in); break;
    case 0xfd: skip_prefixed_simd(in); break;
    case 0xfe: skip_prefixed_atomic(in); break;
    default:
      if (d.opcode >= 0x28 && d.opcode <= 0x3e) { skip_memarg(in); break; }
      if (d.opcode >= 0x45 && d.opcode <= 0xc4) break;  // numeric, no immediates
      in.fail("cannot decode opcode " + hex(d.opcode) + " in function " + std::to_string(function_index));
  }
}

// Skips a function body's local declarations; returns how many locals they declare.
uint64_t skip_locals(ByteReader& in) {
  uint64_t locals = 0;
  uint32_t local_groups = in.u32();
  for (uint32_t i = 0; i < local_groups; ++i) {
    locals += in.u32();
    skip_value_type(in);
  }
  return locals;
}

// Walks one function body's instructions, recording exception-handling opcodes, calls and
// ref.func operands.
void walk_function_body(ByteReader& in, uint32_t function_index, WasmModuleSummary& summary, WasmFunctionCalls& calls) {
  skip_locals(in);
  Decoded d;
  while (!in.at_end()) {
    decode_instruction(in, function_index, d);
    ++summary.instruction_count;
    if (is_legacy_exception_opcode(d.opcode)) {
      summary.legacy_eh_sites.push_back({d.opcode, function_index, d.begin});
    }
    if (is_stack_switching_opcode(d.opcode)) {
      summary.stack_switching_sites.push_back({d.opcode, function_index, d.begin});
    }
    switch (d.opcode) {
      case 0x0a: ++summary.throw_ref_count; break;
      case 0x1f: ++summary.try_table_count; break;
      case 0x10: case 0x12: calls.direct.push_back(static_cast<uint32_t>(d.index)); break;  // call, return_call
      case 0x11: case 0x13: case 0x14: case 0x15:  // call_indirect, call_ref and their return_ forms
        calls.indirect_types.push_back(static_cast<uint32_t>(d.index));
        break;
      case 0xd2: summary.referenced_functions.push_back(static_cast<uint32_t>(d.index)); break;  // ref.func
      default: break;
    }
  }
}

void read_import_section(ByteReader& in, WasmModuleSummary& summary) {
  uint32_t count = in.u32();
  for (uint32_t i = 0; i < count; ++i) {
    WasmImport import;
    import.module = in.name();
    import.name = in.name();
    uint8_t kind = in.byte();
    switch (kind) {
      case 0: summary.function_type_indices.push_back(in.u32()); ++summary.imported_function_count; break;
      case 1: summary.tables_shared_with_host = true; skip_value_type(in); read_limits(in); break;
      case 2: import.memory_limits = read_limits(in); break;
      case 3:
        summary.global_value_types.push_back(in.peek());
        summary.global_is_reference.push_back(read_value_type(in));
        in.byte();
        ++summary.imported_global_count;
        break;
      case 4: in.byte(); in.u32(); break;  // tag: attribute, type index
      default: in.fail("unknown import kind " + hex(kind));
    }
    import.kind = static_cast<WasmExternalKind>(kind);
    summary.imports.push_back(std::move(import));
  }
}

// Plain function types only; GC types, rec groups and subtypes stop the reading (their index
// numbering is not modelled) and are flagged.
void read_type_section(ByteReader& in, WasmModuleSummary& summary) {
  uint32_t count = in.u32();
  for (uint32_t i = 0; i < count; ++i) {
    if (in.byte() != 0x60) {
      summary.has_non_function_types = true;
      return;
    }
    std::string signature;
    bool has_reference = false;
    for (const char* part : {"(", ")->("}) {
      signature += part;
      uint32_t values = in.u32();
      if (part[0] == '(') summary.type_param_counts.push_back(values);
      for (uint32_t k = 0; k < values; ++k) has_reference |= read_value_type(in, &signature);
    }
    summary.type_signatures.push_back(signature + ")");
    summary.type_has_reference.push_back(has_reference);
  }
}

void read_table_section(ByteReader& in, WasmModuleSummary& summary) {
  uint32_t count = in.u32();
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t first = in.byte();
    if (first == 0x40) {  // table with an initialiser: 0x40 0x00 reftype limits expr
      in.byte();
      skip_value_type(in);
      read_limits(in);
      read_constant_expression(in, summary);
    } else {
      if (first == 0x63 || first == 0x64) skip_heap_type(in);
      read_limits(in);
    }
  }
}

void read_global_section(ByteReader& in, WasmModuleSummary& summary) {
  uint32_t count = in.u32();
  for (uint32_t i = 0; i < count; ++i) {
    summary.global_value_types.push_back(in.peek());
    summary.global_is_reference.push_back(read_value_type(in));
    in.byte();  // mutability
    read_constant_expression(in, summary);
  }
}

// Every function an element segment names, whatever its mode (active, passive, declarative).
void read_element_section(ByteReader& in, WasmModuleSummary& summary) {
  uint32_t count = in.u32();
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t flags = in.u32();
    if (flags > 7) in.fail("unknown element segment flags " + hex(flags));
    const bool active = (flags & 0x01) == 0;
    const bool expressions = (flags & 0x04) != 0;
    if (active && (flags & 0x02)) in.u32();  // explicit table index
    if (active) read_constant_expression(in, summary);
    if (flags & 0x03) {
      if (expressions) skip_value_type(in);
      else in.byte();  // element kind 0x00 (funcref)
    }
    uint32_t entries = in.u32();
    for (uint32_t k = 0; k < entries; ++k) {
      if (expressions) read_constant_expression(in, summary);
      else summary.referenced_functions.push_back(in.u32());
    }
  }
}

void read_name_section(ByteReader& in, WasmModuleSummary& summary) {
  while (!in.at_end()) {
    uint8_t subsection = in.byte();
    uint32_t size = in.u32();
    size_t end = in.position() + size;
    if (subsection == 1 || subsection == 7) {  // function names, global names
      auto& names = subsection == 1 ? summary.function_names : summary.global_names;
      uint32_t count = in.u32();
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t index = in.u32();
        names.emplace_back(index, in.name());
      }
    }
    if (end < in.position()) in.fail("name subsection overruns");
    in.skip(end - in.position());
  }
}

}  // namespace

const char* to_string(WasmExternalKind kind) {
  switch (kind) {
    case WasmExternalKind::function: return "function";
    case WasmExternalKind::table: return "table";
    case WasmExternalKind::memory: return "memory";
    case WasmExternalKind::global: return "global";
    case WasmExternalKind::tag: return "tag";
  }
  return "?";
}

std::string exception_opcode_name(uint8_t opcode) {
  switch (opcode) {
    case 0x06: return "try";
    case 0x07: return "catch";
    case 0x09: return "rethrow";
    case 0x18: return "delegate";
    case 0x19: return "catch_all";
    case 0x1f: return "try_table";
    case 0x0a: return "throw_ref";
    case 0xe0: return "cont.new";
    case 0xe1: return "cont.bind";
    case 0xe2: return "suspend";
    case 0xe3: return "resume";
    case 0xe4: return "resume_throw";
    case 0xe5: return "switch";
    default: return hex(opcode);
  }
}

void walk_wasm_function_body(const std::vector<uint8_t>& bytes, size_t begin, size_t end, uint32_t function_index,
                             const std::function<void(const WasmInstruction&)>& visit) {
  ByteReader in(bytes, begin, end);
  WasmInstruction instruction;
  instruction.locals_end = in.position();
  instruction.local_count = skip_locals(in);
  instruction.locals_end = in.position();
  Decoded d;
  while (!in.at_end()) {
    decode_instruction(in, function_index, d);
    instruction.opcode = d.opcode;
    instruction.begin = d.begin;
    instruction.end = in.position();
    instruction.index = d.index;
    instruction.constant = d.constant;
    visit(instruction);
  }
}

std::string WasmModuleSummary::function_name(uint32_t function_index) const {
  for (const auto& [index, name] : function_names) {
    if (index == function_index) return name;
  }
  return {};
}

WasmModuleSummary read_wasm_module(const std::vector<uint8_t>& bytes) {
  static const uint8_t header[8] = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
  if (bytes.size() < 8 || !std::equal(header, header + 8, bytes.begin())) {
    throw WasmDecodeError("not a WebAssembly 1.0 binary module (bad magic or version)");
  }
  WasmModuleSummary summary;
  ByteReader module(bytes, 8, bytes.size());
  while (!module.at_end()) {
    uint8_t id = module.byte();
    uint32_t size = module.u32();
    size_t begin = module.position();
    if (size > bytes.size() - begin) module.fail("section " + std::to_string(id) + " runs past the end of the file");
    size_t end = begin + size;
    ByteReader in(bytes, begin, end);
    switch (id) {
      case 0: {
        std::string custom_name = in.name();
        if (custom_name == "name") {
          try {
            read_name_section(in, summary);
          } catch (const WasmDecodeError&) {
            // A damaged name section only costs us nicer messages.
          }
        }
        break;
      }
      case 1: read_type_section(in, summary); break;
      case 2: read_import_section(in, summary); break;
      case 3: {
        summary.defined_function_count = in.u32();
        for (uint32_t i = 0; i < summary.defined_function_count; ++i) summary.function_type_indices.push_back(in.u32());
        break;
      }
      case 4: read_table_section(in, summary); break;
      case 5: {
        uint32_t count = in.u32();
        for (uint32_t i = 0; i < count; ++i) summary.defined_memories.push_back(read_limits(in));
        break;
      }
      case 7: {
        uint32_t count = in.u32();
        for (uint32_t i = 0; i < count; ++i) {
          WasmExport entry;
          entry.name = in.name();
          uint8_t kind = in.byte();
          if (kind > 4) in.fail("unknown export kind " + hex(kind));
          entry.kind = static_cast<WasmExternalKind>(kind);
          entry.index = in.u32();
          if (entry.kind == WasmExternalKind::table) summary.tables_shared_with_host = true;
          summary.exports.push_back(std::move(entry));
        }
        break;
      }
      case 6: read_global_section(in, summary); break;
      case 8: summary.start_function = in.u32(); break;
      case 9: read_element_section(in, summary); break;
      case 10: {
        uint32_t count = in.u32();
        // Each body takes at least its size byte: a larger count is a lie, and resizing to
        // it first would allocate up to 2^32 records (found by fuzz_wasm_module).
        if (count > in.remaining()) in.fail("the code section declares " + std::to_string(count) + " function bodies in " + std::to_string(in.remaining()) + " bytes");
        summary.function_calls.resize(count);
        for (uint32_t i = 0; i < count; ++i) {
          uint32_t body_size = in.u32();
          size_t body_begin = in.position();
          in.skip(body_size);
          ByteReader body(bytes, body_begin, body_begin + body_size);
          walk_function_body(body, summary.imported_function_count + i, summary, summary.function_calls[i]);
        }
        break;
      }
      default: break;
    }
    module.skip(size);
  }
  return summary;
}

WasmModuleSummary read_wasm_module_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw WasmDecodeError("cannot open " + path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  try {
    return read_wasm_module(bytes);
  } catch (const WasmDecodeError& error) {
    throw WasmDecodeError(path + ": " + error.what());
  }
}

}  // namespace llgo_wasm
