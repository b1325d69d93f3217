// The wasm section reader and the variant validation, on hand-assembled modules.
#include <gtest/gtest.h>

#include "link_test_support.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"
#include "llgo_wasm/wasm_module_validation.hpp"

using namespace llgo_wasm;
using link_test::TestModuleShape;
using link_test::build_test_module;

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const auto& line : lines) all += line + "\n";
  return all;
}

}  // namespace

TEST(WasmModuleReader, ReadsImportsExportsMemoriesAndNames) {
  TestModuleShape shape;
  shape.import_asyncify = true;
  auto module = read_wasm_module(build_test_module(shape));
  ASSERT_EQ(module.imports.size(), 1u);
  EXPECT_EQ(module.imports[0].module, "asyncify");
  EXPECT_EQ(module.imports[0].name, "start_unwind");
  EXPECT_EQ(module.imported_function_count, 1u);
  ASSERT_EQ(module.defined_memories.size(), 1u);
  EXPECT_FALSE(module.defined_memories[0].shared);
  ASSERT_EQ(module.exports.size(), 2u);
  EXPECT_EQ(module.exports[0].name, "_start");
  EXPECT_EQ(module.exports[0].index, 1u);
  EXPECT_EQ(module.exports[1].kind, WasmExternalKind::memory);
  EXPECT_EQ(module.function_name(1), "entry_function");
  EXPECT_TRUE(module.legacy_eh_sites.empty()) << "v128.const bytes that look like `try` were taken for opcodes";
  EXPECT_GT(module.instruction_count, 20u);
}

TEST(WasmModuleReader, FindsLegacyExceptionOpcodesAndTryTable) {
  TestModuleShape legacy;
  legacy.legacy_try = true;
  legacy.legacy_catch_and_rethrow = true;
  auto module = read_wasm_module(build_test_module(legacy));
  ASSERT_EQ(module.legacy_eh_sites.size(), 5u);  // try, catch_all, try, catch, rethrow
  EXPECT_EQ(exception_opcode_name(module.legacy_eh_sites[0].opcode), "try");
  EXPECT_EQ(exception_opcode_name(module.legacy_eh_sites[1].opcode), "catch_all");
  EXPECT_EQ(exception_opcode_name(module.legacy_eh_sites[3].opcode), "catch");
  EXPECT_EQ(exception_opcode_name(module.legacy_eh_sites[4].opcode), "rethrow");

  TestModuleShape modern;
  modern.try_table = true;
  auto translated = read_wasm_module(build_test_module(modern));
  EXPECT_TRUE(translated.legacy_eh_sites.empty());
  EXPECT_EQ(translated.try_table_count, 1u);
}

TEST(WasmModuleReader, RejectsDamagedModules) {
  EXPECT_THROW(read_wasm_module({0x00, 0x61, 0x73}), WasmDecodeError);
  auto bytes = build_test_module({});
  bytes[0] = 0x01;
  EXPECT_THROW(read_wasm_module(bytes), WasmDecodeError);
  auto truncated = build_test_module({});
  truncated.resize(truncated.size() - 30);
  EXPECT_THROW(read_wasm_module(truncated), WasmDecodeError);
}

TEST(ModuleValidation, DefaultP1ModulePasses) {
  TestModuleShape shape;
  shape.try_table = true;
  auto violations = validate_module(read_wasm_module(build_test_module(shape)), expectations_for(link_test::resolve_target_named("wasip1").spec));
  EXPECT_TRUE(violations.empty()) << joined(violations);
}

TEST(ModuleValidation, P1ViolationsNameTheOffender) {
  TestModuleShape shape;
  shape.import_asyncify = true;
  shape.import_thread_spawn = true;
  shape.import_shared_memory = true;
  shape.legacy_try = true;
  shape.export_start = false;
  shape.export_memory = false;
  auto text = joined(validate_module(read_wasm_module(build_test_module(shape)), expectations_for(link_test::resolve_target_named("wasip1").spec)));
  EXPECT_NE(text.find("import asyncify.start_unwind was left"), std::string::npos) << text;
  EXPECT_NE(text.find("import wasi.thread-spawn is a thread import"), std::string::npos) << text;
  EXPECT_NE(text.find("import env.memory is a shared memory"), std::string::npos) << text;
  EXPECT_NE(text.find("'try' in function 2 (entry_function)"), std::string::npos) << text;
  EXPECT_NE(text.find("function export '_start' is missing"), std::string::npos) << text;
  EXPECT_NE(text.find("memory export 'memory' is missing"), std::string::npos) << text;
}

TEST(ModuleValidation, DefinedSharedMemoryIsRejectedForP1AndRequiredForP1T) {
  TestModuleShape shared;
  shared.define_shared_memory = true;
  auto module = read_wasm_module(build_test_module(shared));
  EXPECT_NE(joined(validate_module(module, expectations_for(link_test::resolve_target_named("wasip1").spec))).find("memory 0 is defined shared"), std::string::npos);
  EXPECT_TRUE(validate_module(module, expectations_for(link_test::resolve_target_named("wasip1-threads").spec)).empty());

  auto unshared = read_wasm_module(build_test_module({}));
  EXPECT_NE(joined(validate_module(unshared, expectations_for(link_test::resolve_target_named("wasip1-threads").spec))).find("no shared memory"), std::string::npos);

  TestModuleShape imported;
  imported.import_shared_memory = true;
  imported.import_thread_spawn = true;  // fine for P1T
  EXPECT_TRUE(validate_module(read_wasm_module(build_test_module(imported)), expectations_for(link_test::resolve_target_named("wasip1-threads").spec)).empty());
}
