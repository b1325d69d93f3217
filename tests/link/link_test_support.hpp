// Helpers for the link tests: targets resolved by the real resolver over the real descriptors,
// scratch directories, file I/O, hand-assembled wasm modules with chosen properties, and fake
// clang / wasm-opt scripts whose behaviour a test selects through environment variables
// (FAKE_WASM_OPT_MODE = ok | fail | crash | hang | truncate).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/resolve.hpp"

namespace link_test {

namespace fs = std::filesystem;

// A built-in target (or a .json descriptor path) as `llgo-wasm resolve --target NAME` resolves it.
inline llgo_wasm::ResolvedTarget resolve_target_named(const std::string& name) {
  llgo_wasm::Query query;
  query.target = name;
  return llgo_wasm::resolve_target(llgo_wasm::builtin_descriptors(), query);
}

// P1 (`wasip1`), the target most link tests plan for.
inline llgo_wasm::ResolvedTarget resolved_p1() { return resolve_target_named("wasip1"); }

inline fs::path make_scratch_directory(const std::string& label) {
  fs::path base = fs::temp_directory_path() / ("llgo-wasm-link-test-" + label + "-" + std::to_string(getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  return base;
}

inline void write_file(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline void write_text(const fs::path& path, const std::string& text, bool executable = false) {
  std::ofstream(path, std::ios::trunc) << text;
  if (executable) fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
}

inline std::vector<uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Files in `directory` whose name ends in .tmp.
inline std::vector<std::string> temporaries_in(const fs::path& directory) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(directory)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 4 && name.substr(name.size() - 4) == ".tmp") found.push_back(name);
  }
  return found;
}

struct TestModuleShape {
  bool import_asyncify = false;       // asyncify.start_unwind import
  bool import_thread_spawn = false;   // wasi.thread-spawn import
  bool import_shared_memory = false;  // env.memory shared (instead of a defined memory)
  bool define_shared_memory = false;
  bool legacy_try = false;            // try ... catch_all ... end
  bool legacy_catch_and_rethrow = false;
  bool try_table = false;
  bool stack_switching = false;       // cont.new, resume with a handler, suspend
  bool export_start = true;
  bool export_memory = true;
  size_t padding_functions = 0;       // extra empty functions to grow the module
};

inline void append_leb(std::vector<uint8_t>& out, uint64_t value) {
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    out.push_back(value ? byte | 0x80 : byte);
  } while (value);
}

inline void append_name(std::vector<uint8_t>& out, const std::string& name) {
  append_leb(out, name.size());
  out.insert(out.end(), name.begin(), name.end());
}

inline void append_section(std::vector<uint8_t>& module, uint8_t id, const std::vector<uint8_t>& payload) {
  module.push_back(id);
  append_leb(module, payload.size());
  module.insert(module.end(), payload.begin(), payload.end());
}

// A module shaped like a linked P1 program (by default: defined memory, _start and memory
// exported, plain code).  The code is decodable but not meant to validate in an engine.
inline std::vector<uint8_t> build_test_module(const TestModuleShape& shape) {
  std::vector<uint8_t> module = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
  append_section(module, 1, {0x01, 0x60, 0x00, 0x00});  // one type: () -> ()

  std::vector<uint8_t> imports;
  uint32_t import_count = 0;
  uint32_t imported_functions = 0;
  std::vector<uint8_t> import_entries;
  std::vector<std::string> function_names;
  // A function import of type 0, named `local_name` in the name section.
  auto import_function = [&](const char* module, const char* field, const char* local_name) {
    append_name(import_entries, module);
    append_name(import_entries, field);
    import_entries.insert(import_entries.end(), {0x00, 0x00});
    ++import_count;
    ++imported_functions;
    function_names.push_back(local_name);
  };
  if (shape.import_asyncify) import_function("asyncify", "start_unwind", "asyncify_start_unwind");
  if (shape.import_thread_spawn) import_function("wasi", "thread-spawn", "wasi_thread_spawn");
  if (shape.import_shared_memory) {
    append_name(import_entries, "env");
    append_name(import_entries, "memory");
    import_entries.insert(import_entries.end(), {0x02, 0x03, 0x02, 0x10});  // shared, min 2, max 16
    ++import_count;
  }
  if (import_count > 0) {
    append_leb(imports, import_count);
    imports.insert(imports.end(), import_entries.begin(), import_entries.end());
    append_section(module, 2, imports);
  }

  const size_t defined_functions = 1 + shape.padding_functions;
  std::vector<uint8_t> functions;
  append_leb(functions, defined_functions);
  for (size_t i = 0; i < defined_functions; ++i) functions.push_back(0x00);
  append_section(module, 3, functions);

  if (!shape.import_shared_memory) {
    if (shape.define_shared_memory) append_section(module, 5, {0x01, 0x03, 0x02, 0x10});
    else append_section(module, 5, {0x01, 0x00, 0x02});
  }

  std::vector<uint8_t> exports;
  std::vector<uint8_t> export_entries;
  uint32_t export_count = 0;
  if (shape.export_start) {
    append_name(export_entries, "_start");
    export_entries.push_back(0x00);
    append_leb(export_entries, imported_functions);
    ++export_count;
  }
  if (shape.export_memory) {
    append_name(export_entries, "memory");
    export_entries.insert(export_entries.end(), {0x02, 0x00});
    ++export_count;
  }
  append_leb(exports, export_count);
  exports.insert(exports.end(), export_entries.begin(), export_entries.end());
  append_section(module, 7, exports);

  // The entry body exercises immediates of many kinds so the opcode walk is really tested.
  std::vector<uint8_t> body = {0x00};                          // no locals
  body.insert(body.end(), {0x41, 0xff, 0xff, 0x03, 0x1a});     // i32.const 65535; drop
  body.insert(body.end(), {0x42, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x1a});  // i64.const; drop
  body.insert(body.end(), {0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x1a});          // f64.const 1; drop
  body.insert(body.end(), {0x41, 0x00, 0x28, 0x02, 0x08, 0x1a});                // i32.load offset=8
  body.insert(body.end(), {0xfd, 0x0c});                                        // v128.const
  body.insert(body.end(), 16, 0x06);                                            // (bytes look like `try`)
  body.push_back(0x1a);
  body.insert(body.end(), {0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xfc, 0x0b, 0x00});  // memory.fill
  body.insert(body.end(), {0x02, 0x40, 0x41, 0x01, 0x0e, 0x01, 0x00, 0x00, 0x0b});  // block; br_table
  if (shape.legacy_try) body.insert(body.end(), {0x06, 0x40, 0x01, 0x19, 0x01, 0x0b});  // try; nop; catch_all; nop; end
  if (shape.legacy_catch_and_rethrow) {
    body.insert(body.end(), {0x06, 0x40, 0x01, 0x07, 0x00, 0x09, 0x00, 0x0b});  // try; catch 0; rethrow 0; end
  }
  if (shape.stack_switching) {
    body.insert(body.end(), {0x02, 0x40, 0xd2, 0x00, 0xe0, 0x01});  // block; ref.func 0; cont.new 1
    // resume 1 (on 98 0): the tag's LEB starts with 0xe2, so a walk that skipped the handler
    // vector wrongly would count an extra `suspend`
    body.insert(body.end(), {0xe3, 0x01, 0x01, 0x00, 0xe2, 0x00, 0x00});
    body.insert(body.end(), {0x0b, 0xe2, 0x00});                    // end; suspend 0
  }
  if (shape.try_table) body.insert(body.end(), {0x1f, 0x40, 0x01, 0x02, 0x00, 0x01, 0x0b});  // try_table (catch_all 0)
  if (shape.import_asyncify) body.insert(body.end(), {0x41, 0x00, 0x10, 0x00});  // call asyncify import
  body.push_back(0x0b);

  std::vector<uint8_t> code;
  append_leb(code, defined_functions);
  append_leb(code, body.size());
  code.insert(code.end(), body.begin(), body.end());
  for (size_t i = 1; i < defined_functions; ++i) code.insert(code.end(), {0x02, 0x00, 0x0b});
  append_section(module, 10, code);

  std::vector<uint8_t> names;
  std::vector<uint8_t> function_name_map;
  function_names.push_back("entry_function");
  append_leb(function_name_map, function_names.size());
  for (size_t i = 0; i < function_names.size(); ++i) {
    append_leb(function_name_map, i);
    append_name(function_name_map, function_names[i]);
  }
  append_name(names, "name");
  names.push_back(0x01);
  append_leb(names, function_name_map.size());
  names.insert(names.end(), function_name_map.begin(), function_name_map.end());
  append_section(module, 0, names);
  return module;
}

// Writes fake-clang and fake-wasm-opt into `directory`.  fake-clang copies $FAKE_CORE_MODULE
// to its -o argument and appends its argv to $FAKE_CLANG_LOG; fake-wasm-opt answers --version
// with $FAKE_WASM_OPT_VERSION (default 132) and otherwise acts on $FAKE_WASM_OPT_MODE.
inline void write_fake_tools(const fs::path& directory) {
  write_text(directory / "fake-clang", R"SH(#!/bin/sh
[ -n "$FAKE_CLANG_LOG" ] && printf '%s\n' "$*" >> "$FAKE_CLANG_LOG"
out=""
prev=""
for arg in "$@"; do
  [ "$prev" = "-o" ] && out="$arg"
  prev="$arg"
done
exec cp "$FAKE_CORE_MODULE" "$out"
)SH", true);
  write_text(directory / "fake-wasm-opt", R"SH(#!/bin/sh
if [ "$1" = "--version" ]; then
  echo "wasm-opt version ${FAKE_WASM_OPT_VERSION:-132} (version_${FAKE_WASM_OPT_VERSION:-132})"
  exit 0
fi
[ -n "$FAKE_WASM_OPT_LOG" ] && printf '%s\n' "$*" >> "$FAKE_WASM_OPT_LOG"
out=""
prev=""
for arg in "$@"; do
  [ "$prev" = "-o" ] && out="$arg"
  prev="$arg"
done
case "${FAKE_WASM_OPT_MODE:-ok}" in
  fail) echo "fake wasm-opt: failing on purpose" >&2; exit 1 ;;
  crash) head -c 20 "$FAKE_FINAL_MODULE" > "$out"; kill -SEGV $$ ;;
  hang) head -c 20 "$FAKE_FINAL_MODULE" > "$out"; echo $$ > "$FAKE_WASM_OPT_PIDFILE"; exec sleep 60 ;;
  truncate) head -c 20 "$FAKE_FINAL_MODULE" > "$out"; echo "fake wasm-opt: No space left on device" >&2; exit 1 ;;
  *) sleep "${FAKE_WASM_OPT_DELAY:-0}"; exec cp "$FAKE_FINAL_MODULE" "$out" ;;
esac
)SH", true);
}

}  // namespace link_test
