// The link's stack-overflow check (driver/link/src/stack_check.cpp) on hand-assembled modules:
// exactly which writes of __stack_pointer it checks, the code it inserts, and when it leaves a
// module alone. What the check does at run time is tested by tests/stacks on every variant.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "llgo_wasm/emscripten_asyncify.hpp"
#include "llgo_wasm/stack_check.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"

using namespace llgo_wasm;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<uint8_t>;

void put_u32(Bytes& out, uint32_t value) {
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    if (value != 0) byte |= 0x80;
    out.push_back(byte);
  } while (value != 0);
}

void put_name(Bytes& out, const std::string& name) {
  put_u32(out, static_cast<uint32_t>(name.size()));
  out.insert(out.end(), name.begin(), name.end());
}

void put_section(Bytes& module, uint8_t id, const Bytes& payload) {
  module.push_back(id);
  put_u32(module, static_cast<uint32_t>(payload.size()));
  module.insert(module.end(), payload.begin(), payload.end());
}

void put_custom(Bytes& module, const std::string& name, const Bytes& content) {
  Bytes payload;
  put_name(payload, name);
  payload.insert(payload.end(), content.begin(), content.end());
  put_section(module, 0, payload);
}

// The body of `work` (function 1): one local (i32), a prologue that lowers the stack pointer and
// an epilogue that restores it as LLVM writes them.
const Bytes kWorkInstructions = {
    0x23, 0x00, 0x41, 0x10, 0x6b, 0x22, 0x00, 0x24, 0x00,  // global.get sp; i32.const 16; i32.sub; local.tee 0; global.set sp
    0x20, 0x00, 0x41, 0x10, 0x6a, 0x24, 0x00,              // local.get 0; i32.const 16; i32.add; global.set sp
    0x0b};

struct Shape {
  std::string trap_name = kStackOverflowTrap;
  std::string guard_name = kStackGuardGlobal;
  bool debug_section = true;
  bool names = true;  // the name section (emcc strips it at wasm-ld unless something needs it)
};

// A module with globals __stack_pointer (0) and the guard (1), the trap (function 0, which
// itself writes the stack pointer) and `work` (function 1), its name section and a DWARF section.
Bytes build_module(const Shape& shape = {}) {
  Bytes module = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
  put_section(module, 1, {0x02, 0x60, 0x01, 0x7f, 0x00, 0x60, 0x00, 0x00});  // (i32)->(), ()->()
  put_section(module, 3, {0x02, 0x00, 0x01});
  put_section(module, 6, {0x02, 0x7f, 0x01, 0x41, 0x80, 0x80, 0x04, 0x0b,  // mut i32 = 65536
                          0x7f, 0x01, 0x41, 0x00, 0x0b});                  // mut i32 = 0
  Bytes code = {0x02};
  const Bytes trap = {0x00, 0x23, 0x00, 0x24, 0x00, 0x0b};  // no locals; global.get sp; global.set sp
  put_u32(code, static_cast<uint32_t>(trap.size()));
  code.insert(code.end(), trap.begin(), trap.end());
  Bytes work = {0x01, 0x01, 0x7f};  // one group: 1 x i32
  work.insert(work.end(), kWorkInstructions.begin(), kWorkInstructions.end());
  put_u32(code, static_cast<uint32_t>(work.size()));
  code.insert(code.end(), work.begin(), work.end());
  put_section(module, 10, code);
  Bytes names;
  Bytes functions = {0x02};
  put_u32(functions, 0);
  put_name(functions, shape.trap_name);
  put_u32(functions, 1);
  put_name(functions, "work");
  names.push_back(1);
  put_u32(names, static_cast<uint32_t>(functions.size()));
  names.insert(names.end(), functions.begin(), functions.end());
  Bytes globals = {0x02};
  put_u32(globals, 0);
  put_name(globals, kStackPointerGlobal);
  put_u32(globals, 1);
  put_name(globals, shape.guard_name);
  names.push_back(7);
  put_u32(names, static_cast<uint32_t>(globals.size()));
  names.insert(names.end(), globals.begin(), globals.end());
  if (shape.names) put_custom(module, "name", names);
  if (shape.debug_section) put_custom(module, ".debug_info", {0x01, 0x02, 0x03});
  return module;
}

bool contains(const Bytes& haystack, const Bytes& needle) {
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) != haystack.end();
}

bool contains_text(const Bytes& haystack, const std::string& text) { return contains(haystack, Bytes(text.begin(), text.end())); }

}  // namespace

TEST(StackCheck, ChecksEveryWriteThatCanLowerTheStackPointer) {
  const Bytes module = build_module();
  Bytes out;
  const StackCheckReport report = add_stack_check(module, out);
  ASSERT_TRUE(report.instrumented) << report.skipped_reason;
  EXPECT_EQ(report.functions, 1u) << "the trap's own write must stay unchecked";
  EXPECT_EQ(report.checks, 1u);
  EXPECT_EQ(report.restores, 1u) << "`x + 16` restores the stack pointer and needs no check";
  EXPECT_EQ(report.dropped_sections, 1u);
  EXPECT_EQ(report.bytes_before, module.size());
  EXPECT_EQ(report.bytes_after, out.size());
  EXPECT_NE(report.describe().find("1 writes of __stack_pointer in 1 functions"), std::string::npos) << report.describe();

  // One more local (index 1: no parameters, one declared), then the check before the prologue's
  // global.set, and the epilogue unchanged.
  const Bytes expected_body = {
      0x02, 0x01, 0x7f, 0x01, 0x7f,                          // locals: 1 x i32, then the check's i32
      0x23, 0x00, 0x41, 0x10, 0x6b, 0x22, 0x00,              // the prologue up to its global.set
      0x22, 0x01, 0x23, 0x01, 0x49, 0x04, 0x40,              // local.tee 1; global.get guard; i32.lt_u; if
      0x20, 0x01, 0x10, 0x00, 0x0b,                          //   local.get 1; call trap; end
      0x20, 0x01, 0x24, 0x00,                                // local.get 1; global.set sp
      0x20, 0x00, 0x41, 0x10, 0x6a, 0x24, 0x00, 0x0b};       // the epilogue
  Bytes sized_body;
  put_u32(sized_body, static_cast<uint32_t>(expected_body.size()));
  sized_body.insert(sized_body.end(), expected_body.begin(), expected_body.end());
  EXPECT_TRUE(contains(out, sized_body)) << "the rewritten body of `work` is not the expected one";
  EXPECT_TRUE(contains(out, {0x06, 0x00, 0x23, 0x00, 0x24, 0x00, 0x0b})) << "the trap's body changed";
  EXPECT_TRUE(contains_text(out, kStackCheckSection));
  EXPECT_FALSE(contains_text(out, ".debug_info"));

  const WasmModuleSummary summary = read_wasm_module(out);  // still a module the reader accepts
  EXPECT_EQ(summary.function_name(1), "work");
}

TEST(StackCheck, ChecksAModuleOnce) {
  Bytes once;
  ASSERT_TRUE(add_stack_check(build_module(), once).instrumented);
  Bytes twice;
  const StackCheckReport again = add_stack_check(once, twice);
  EXPECT_FALSE(again.instrumented);
  EXPECT_EQ(again.skipped_reason, "already checked");
  EXPECT_EQ(twice, once);
}

TEST(StackCheck, LeavesAModuleWithoutTheRuntimeAlone) {
  for (const Shape& shape : {Shape{.trap_name = "other"}, Shape{.guard_name = "other"}}) {
    const Bytes module = build_module(shape);
    Bytes out;
    const StackCheckReport report = add_stack_check(module, out);
    EXPECT_FALSE(report.instrumented);
    EXPECT_NE(report.skipped_reason.find("does not link llgo-wasm's runtime"), std::string::npos) << report.skipped_reason;
    EXPECT_EQ(out, module);
    EXPECT_EQ(report.checks, 0u);
  }
}

TEST(StackCheck, SaysWhenAModuleHasNoNamesToFindTheRuntimeBy) {
  // Without a name section the runtime's guard and trap cannot be found: not the same as a module
  // that does not link the runtime, and a link that asked for the check must not go without it
  // without a word.
  const Bytes module = build_module({.names = false});
  Bytes out;
  const StackCheckReport report = add_stack_check(module, out);
  EXPECT_FALSE(report.instrumented);
  EXPECT_TRUE(report.names_missing);
  EXPECT_NE(report.skipped_reason.find("carries no names"), std::string::npos) << report.skipped_reason;
  EXPECT_EQ(out, module);
  Bytes named_out;
  EXPECT_FALSE(add_stack_check(build_module(), named_out).names_missing);
  EXPECT_FALSE(add_stack_check(build_module({.trap_name = "other"}), named_out).names_missing);
}

TEST(StackCheck, TheEmscriptenShimWarnsOfAModuleWithoutNames) {
  // emcc's wasm-opt call through the shim (docs/link-pipeline.md, The stack check), with a
  // stand-in for the real wasm-opt: a nameless module draws a warning that says why and what to do
  // (a plain C program without the runtime links so too); a named one is checked in place quietly.
  const fs::path dir = fs::temp_directory_path() / ("llgo-stack-check-shim-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const bool names : {false, true}) {
    const fs::path module = dir / "in.wasm", report = dir / "report.json";
    const Bytes bytes = build_module({.names = names});
    std::ofstream(module, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(bytes.data()),
                                                                      static_cast<std::streamsize>(bytes.size()));
    testing::internal::CaptureStderr();
    const int status = run_emscripten_wasm_opt_shim(
        {"/bin/true", report.string(), kShimStackCheck, "-O2", module.string(), "-o", (dir / "out.wasm").string()});
    const std::string said = testing::internal::GetCapturedStderr();
    if (names) {
      EXPECT_EQ(status, 0) << said;
      EXPECT_TRUE(said.empty()) << said;
    } else {
      EXPECT_EQ(status, 0);
      EXPECT_NE(said.find("llgo-wasm: warning: the stack-overflow check did not run"), std::string::npos) << said;
      EXPECT_NE(said.find(module.string()), std::string::npos) << said;
      EXPECT_NE(said.find("--stack-check off"), std::string::npos) << said;
    }
  }
  fs::remove_all(dir);
}

TEST(StackCheck, RefusesADamagedModule) {
  Bytes module = build_module({.debug_section = false});
  module.resize(module.size() - 12);
  Bytes out;
  EXPECT_THROW(add_stack_check(module, out), WasmDecodeError);
}
