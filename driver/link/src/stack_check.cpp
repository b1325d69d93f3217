// The link's stack-overflow check (see stack_check.hpp).
#include "llgo_wasm/stack_check.hpp"

#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {
namespace {

constexpr uint8_t kI32 = 0x7f;
constexpr uint8_t kI64 = 0x7e;

void put_u32(std::vector<uint8_t>& out, uint64_t value) {
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    if (value != 0) byte |= 0x80;
    out.push_back(byte);
  } while (value != 0);
}

// A section: its id, where its payload is, and a custom section's name.
struct Section {
  uint8_t id = 0;
  size_t begin = 0;  // the id byte
  size_t payload = 0;
  size_t end = 0;
  std::string custom_name;
};

// A tiny reader for the few things the rewrite needs beyond the module summary.
struct Cursor {
  const std::vector<uint8_t>& bytes;
  size_t position;
  size_t end;
  uint64_t u32() {
    uint64_t result = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (position >= end || shift > 28) throw WasmDecodeError("bad integer at offset " + std::to_string(position));
      uint8_t b = bytes[position++];
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return result;
    }
  }
};

std::vector<Section> read_sections(const std::vector<uint8_t>& module) {
  std::vector<Section> sections;
  Cursor in{module, 8, module.size()};
  while (in.position < module.size()) {
    Section section;
    section.begin = in.position;
    section.id = module[in.position++];
    uint64_t size = in.u32();
    section.payload = in.position;
    if (size > module.size() - in.position) throw WasmDecodeError("a section runs past the end of the module");
    section.end = in.position + size;
    if (section.id == 0) {
      Cursor name{module, section.payload, section.end};
      uint64_t length = name.u32();
      if (length > section.end - name.position) throw WasmDecodeError("a custom section's name runs past it");
      section.custom_name.assign(module.begin() + static_cast<long>(name.position),
                                 module.begin() + static_cast<long>(name.position + length));
    }
    sections.push_back(section);
    in.position = section.end;
  }
  return sections;
}

std::optional<uint32_t> find_name(const std::vector<std::pair<uint32_t, std::string>>& names, const std::string& name) {
  for (const auto& [index, entry] : names) {
    if (entry == name) return index;
  }
  return std::nullopt;
}

}  // namespace

std::string StackCheckReport::describe() const {
  if (!instrumented) return "stack check: none (" + skipped_reason + ")";
  std::string line = "stack check: " + std::to_string(checks) + " writes of " + kStackPointerGlobal + " in " +
                     std::to_string(functions) + " functions checked against " + kStackGuardGlobal + " (" +
                     std::to_string(restores) + " restores left alone), " + std::to_string(bytes_before) + " -> " +
                     std::to_string(bytes_after) + " bytes";
  if (dropped_sections > 0) {
    line += "; " + std::to_string(dropped_sections) + " DWARF sections removed (the check moves code; link with --stack-check off to keep them)";
  }
  return line;
}

std::string stack_check_needs_names(const std::string& module) {
  return "the stack-overflow check did not run: " + module + " carries no names (no name section), so the runtime's " +
         kStackGuardGlobal + " and " + kStackOverflowTrap +
         " cannot be found; if the program links llgo-wasm's runtime, it runs with no check of its C stack. Keep the "
         "names at link (-s/--strip-all remove them, and emcc strips them at wasm-ld unless Asyncify, -g2 or a symbol "
         "map needs them), or link with --stack-check off to go without the check and without this warning";
}

StackCheckReport add_stack_check(const std::vector<uint8_t>& module, std::vector<uint8_t>& out) {
  StackCheckReport report;
  report.bytes_before = module.size();
  auto unchanged = [&](const std::string& why) {
    report.skipped_reason = why;
    out = module;
    report.bytes_after = out.size();
    return report;
  };
  const WasmModuleSummary summary = read_wasm_module(module);
  const std::vector<Section> sections = read_sections(module);
  for (const auto& section : sections) {
    if (section.id == 0 && section.custom_name == kStackCheckSection) return unchanged("already checked");
  }
  if (summary.function_names.empty() && summary.global_names.empty()) {
    report.names_missing = true;
    return unchanged(std::string("the module carries no names (no name section), so its ") + kStackGuardGlobal +
                     " and " + kStackOverflowTrap + " cannot be found");
  }
  std::optional<uint32_t> guard = find_name(summary.global_names, kStackGuardGlobal);
  std::optional<uint32_t> trap;
  for (const auto& [index, name] : summary.function_names) {
    if (name == kStackOverflowTrap && index >= summary.imported_function_count) trap = index;
  }
  if (!guard || !trap) {
    return unchanged(std::string("the module has no ") + kStackGuardGlobal + " and " + kStackOverflowTrap +
                     " (it does not link llgo-wasm's runtime)");
  }
  std::optional<uint32_t> stack_pointer = find_name(summary.global_names, kStackPointerGlobal);
  if (!stack_pointer) {
    uint32_t global = 0;
    for (const auto& import : summary.imports) {
      if (import.kind != WasmExternalKind::global) continue;
      if (import.name == kStackPointerGlobal) stack_pointer = global;
      ++global;
    }
  }
  if (!stack_pointer || *stack_pointer >= summary.global_value_types.size() || *guard >= summary.global_value_types.size()) {
    return unchanged(std::string("the module names no ") + kStackPointerGlobal + " global");
  }
  const uint8_t pointer_type = summary.global_value_types[*stack_pointer];
  if ((pointer_type != kI32 && pointer_type != kI64) || summary.global_value_types[*guard] != pointer_type) {
    return unchanged(std::string(kStackPointerGlobal) + " and " + kStackGuardGlobal + " are not both i32 or both i64");
  }
  if (summary.has_non_function_types) return unchanged("the module has GC or recursive types, which the check does not model");
  const uint8_t less_than = pointer_type == kI32 ? 0x49 : 0x54;  // i32.lt_u, i64.lt_u
  const uint8_t add = pointer_type == kI32 ? 0x6a : 0x7c;        // i32.add, i64.add
  const uint8_t constant = pointer_type == kI32 ? 0x41 : 0x42;   // i32.const, i64.const

  // The code section, rewritten.
  std::vector<uint8_t> code;
  const Section* code_section = nullptr;
  for (const auto& section : sections) {
    if (section.id == 10) code_section = &section;
  }
  if (!code_section) return unchanged("the module has no code");
  Cursor in{module, code_section->payload, code_section->end};
  const uint64_t bodies = in.u32();
  put_u32(code, bodies);
  for (uint64_t i = 0; i < bodies; ++i) {
    const uint64_t body_size = in.u32();
    const size_t body_begin = in.position, body_end = in.position + body_size;
    if (body_end > code_section->end) throw WasmDecodeError("a function body runs past the code section");
    in.position = body_end;
    const uint32_t function_index = summary.imported_function_count + static_cast<uint32_t>(i);
    std::vector<size_t> sites;  // offsets of the global.set instructions to check
    size_t locals_end = body_begin;
    uint64_t local_count = 0;
    if (function_index != *trap) {
      // The last two instructions before each one, to recognise `x + C`.
      WasmInstruction previous, before_previous;
      walk_wasm_function_body(module, body_begin, body_end, function_index, [&](const WasmInstruction& instruction) {
        locals_end = instruction.locals_end;
        local_count = instruction.local_count;
        if (instruction.opcode == 0x24 && instruction.index == *stack_pointer) {
          if (previous.opcode == add && before_previous.opcode == constant && before_previous.constant > 0) {
            ++report.restores;
          } else {
            sites.push_back(instruction.begin);
          }
        }
        before_previous = previous;
        previous = instruction;
      });
    }
    if (sites.empty()) {
      put_u32(code, body_size);
      code.insert(code.end(), module.begin() + static_cast<long>(body_begin), module.begin() + static_cast<long>(body_end));
      continue;
    }
    // The new local comes after the parameters and the declared locals.
    const uint32_t type = summary.function_type_indices.at(function_index);
    const uint64_t temporary = summary.type_param_counts.at(type) + local_count;
    std::vector<uint8_t> body;
    Cursor locals{module, body_begin, body_end};
    const uint64_t groups = locals.u32();
    put_u32(body, groups + 1);
    body.insert(body.end(), module.begin() + static_cast<long>(locals.position), module.begin() + static_cast<long>(locals_end));
    put_u32(body, 1);
    body.push_back(pointer_type);
    size_t copied = locals_end;
    for (size_t site : sites) {
      body.insert(body.end(), module.begin() + static_cast<long>(copied), module.begin() + static_cast<long>(site));
      body.push_back(0x22);  // local.tee $t
      put_u32(body, temporary);
      body.push_back(0x23);  // global.get $guard
      put_u32(body, *guard);
      body.push_back(less_than);
      body.push_back(0x04);  // if (no result)
      body.push_back(0x40);
      body.push_back(0x20);  // local.get $t
      put_u32(body, temporary);
      body.push_back(0x10);  // call $trap
      put_u32(body, *trap);
      body.push_back(0x0b);  // end
      body.push_back(0x20);  // local.get $t
      put_u32(body, temporary);
      copied = site;         // the global.set itself follows
      ++report.checks;
    }
    body.insert(body.end(), module.begin() + static_cast<long>(copied), module.begin() + static_cast<long>(body_end));
    put_u32(code, body.size());
    code.insert(code.end(), body.begin(), body.end());
    ++report.functions;
  }
  if (report.checks == 0) return unchanged("no write of " + std::string(kStackPointerGlobal) + " to check");

  out.assign(module.begin(), module.begin() + 8);
  for (const auto& section : sections) {
    if (section.id == 0 && section.custom_name.rfind(".debug", 0) == 0) {
      ++report.dropped_sections;
      continue;
    }
    if (&section == code_section) {
      out.push_back(10);
      put_u32(out, code.size());
      out.insert(out.end(), code.begin(), code.end());
      continue;
    }
    out.insert(out.end(), module.begin() + static_cast<long>(section.begin), module.begin() + static_cast<long>(section.end));
  }
  // The mark: a custom section named kStackCheckSection holding one version byte.
  std::vector<uint8_t> mark;
  const std::string name = kStackCheckSection;
  put_u32(mark, name.size());
  mark.insert(mark.end(), name.begin(), name.end());
  mark.push_back(1);
  out.push_back(0);
  put_u32(out, mark.size());
  out.insert(out.end(), mark.begin(), mark.end());
  report.instrumented = true;
  report.bytes_after = out.size();
  return report;
}

StackCheckReport add_stack_check_file(const std::string& in, const std::string& out) {
  std::ifstream file(in, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + in);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  file.close();
  std::vector<uint8_t> rewritten;
  StackCheckReport report;
  try {
    report = add_stack_check(bytes, rewritten);
  } catch (const WasmDecodeError& error) {
    throw WasmDecodeError(in + ": " + error.what());
  }
  std::ofstream written(out, std::ios::binary | std::ios::trunc);
  written.write(reinterpret_cast<const char*>(rewritten.data()), static_cast<std::streamsize>(rewritten.size()));
  written.close();
  if (!written) throw std::runtime_error("cannot write " + out);
  return report;
}

}  // namespace llgo_wasm
