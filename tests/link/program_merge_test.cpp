// The post-link merge's commands: wasm-merge's argument order and names, explicit Binaryen
// features, the export patterns removed afterwards, and finding wasm-merge beside wasm-opt.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "llgo_wasm/program_merge.hpp"

using namespace llgo_wasm;

namespace {

ProgramMerge stack_switching_glue() {
  return {{{"llgo_stack_switching", "/src/runtime/src/wasmcontext_stack_switching.wat"}},
          {"llgo_stack_switching_*", "__c_longjmp"},
          {"exception-handling", "stack-switching"}};
}

}  // namespace

TEST(ProgramMerge, MergeCommandNamesTheProgramAndEveryModule) {
  auto command = wasm_merge_command(stack_switching_glue(), "/opt/wasm-merge", "app.core.wasm", "app.merged.wasm");
  EXPECT_EQ(command, (std::vector<std::string>{"/opt/wasm-merge", "--enable-exception-handling",
                                               "--enable-stack-switching", "app.core.wasm", "llgo_program",
                                               "/src/runtime/src/wasmcontext_stack_switching.wat",
                                               "llgo_stack_switching", "-o", "app.merged.wasm"}));
  for (const auto& word : command) EXPECT_NE(word, "-all") << "-all enables encodings V8 rejects";
}

TEST(ProgramMerge, InternalExportsBecomeOneRemoveExportsFlag) {
  EXPECT_EQ(remove_internal_exports_flag(stack_switching_glue()),
            std::optional<std::string>("--remove-exports=llgo_stack_switching_*,__c_longjmp"));
  ProgramMerge none = stack_switching_glue();
  none.internal_exports.clear();
  EXPECT_FALSE(remove_internal_exports_flag(none));
  EXPECT_TRUE(ProgramMerge{}.empty());
  EXPECT_FALSE(stack_switching_glue().empty());
}

TEST(ProgramMerge, FindsBinaryenToolsBesideWasmOpt) {
  auto dir = std::filesystem::temp_directory_path() / ("llgo_merge_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  for (const char* name : {"wasm-opt", "wasm-merge"}) std::ofstream(dir / name) << "#!/bin/sh\n";
  std::filesystem::permissions(dir / "wasm-opt", std::filesystem::perms::owner_all);
  EXPECT_FALSE(binaryen_tool_beside((dir / "wasm-opt").string(), "wasm-merge")) << "not executable yet";
  std::filesystem::permissions(dir / "wasm-merge", std::filesystem::perms::owner_all);
  EXPECT_EQ(binaryen_tool_beside((dir / "wasm-opt").string(), "wasm-merge"), (dir / "wasm-merge").string());
  EXPECT_FALSE(binaryen_tool_beside((dir / "wasm-opt").string(), "wasm-as"));
  std::filesystem::remove_all(dir);
}
