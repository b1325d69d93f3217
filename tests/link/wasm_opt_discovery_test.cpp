// wasm-opt discovery order, version parsing and the error messages, with fake wasm-opt
// scripts that report chosen versions.
#include <map>

#include <gtest/gtest.h>

#include "link_test_support.hpp"
#include "llgo_wasm/wasm_opt_discovery.hpp"

using namespace llgo_wasm;
namespace fs = std::filesystem;

namespace {

void write_versioned_wasm_opt(const fs::path& path, int version) {
  fs::create_directories(path.parent_path());
  link_test::write_text(path, "#!/bin/sh\necho 'wasm-opt version " + std::to_string(version) + " (version_" +
                                  std::to_string(version) + ")'\n", true);
}

EnvironmentLookup environment_of(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
}

class WasmOptDiscovery : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch = link_test::make_scratch_directory("discovery");
    write_versioned_wasm_opt(scratch / "old" / "wasm-opt", 108);
    write_versioned_wasm_opt(scratch / "new" / "wasm-opt", 130);
    write_versioned_wasm_opt(scratch / "binaryen" / "bin" / "wasm-opt", 127);
    write_versioned_wasm_opt(scratch / "setup" / "bin" / "wasm-opt", 132);
  }
  void TearDown() override { fs::remove_all(scratch); }
  fs::path scratch;
};

}  // namespace

TEST(WasmOptVersion, ParsesBinaryenVersionLines) {
  EXPECT_EQ(parse_wasm_opt_version("wasm-opt version 132 (version_132)"), 132);
  EXPECT_EQ(parse_wasm_opt_version("wasm-opt version 108"), 108);
  EXPECT_EQ(parse_wasm_opt_version("wasm-opt version_116-30-gabc"), 116);
  EXPECT_FALSE(parse_wasm_opt_version("wasm-opt (unknown)").has_value());
}

TEST_F(WasmOptDiscovery, WasmoptWinsAndIsFinal) {
  auto tool = discover_wasm_opt(environment_of({{"WASMOPT", (scratch / "new" / "wasm-opt").string()},
                                                {"PATH", (scratch / "old").string()}}));
  EXPECT_EQ(tool.source, "WASMOPT");
  EXPECT_EQ(tool.version, 130);
  EXPECT_EQ(tool.version_string, "wasm-opt version 130 (version_130)");

  // A too-old explicit choice is an error even though a good one is in the setup folder.
  try {
    discover_wasm_opt(environment_of({{"WASMOPT", (scratch / "old" / "wasm-opt").string()},
                                      {"LLGO_WASM_TOOLCHAIN_DIR", (scratch / "setup").string()}}));
    FAIL() << "an old WASMOPT was accepted";
  } catch (const WasmOptDiscoveryError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("WASMOPT: " + (scratch / "old" / "wasm-opt").string() + " is Binaryen 108, too old"), std::string::npos) << message;
    EXPECT_NE(message.find("point WASMOPT="), std::string::npos) << message;
  }
}

TEST_F(WasmOptDiscovery, BinaryenRootThenPathThenSetupFolder) {
  EXPECT_EQ(discover_wasm_opt(environment_of({{"BINARYEN_ROOT", (scratch / "binaryen").string()},
                                              {"PATH", (scratch / "new").string()}})).version, 127);
  auto from_path = discover_wasm_opt(environment_of({{"PATH", (scratch / "new").string()},
                                                     {"LLGO_WASM_TOOLCHAIN_DIR", (scratch / "setup").string()}}));
  EXPECT_EQ(from_path.source, "PATH");
  EXPECT_EQ(from_path.version, 130);
  // Debian's Binaryen 108 on PATH is passed over for the setup folder's pinned one.
  auto from_setup = discover_wasm_opt(environment_of({{"PATH", (scratch / "old").string()},
                                                      {"LLGO_WASM_TOOLCHAIN_DIR", (scratch / "setup").string()}}));
  EXPECT_EQ(from_setup.source, "setup folder");
  EXPECT_EQ(from_setup.version, 132);
  // XDG_CACHE_HOME / HOME spell the default setup folder.
  fs::create_directories(scratch / "xdg" / "llgo-wasm");
  fs::create_symlink(scratch / "setup", scratch / "xdg" / "llgo-wasm" / "toolchain-v1");
  EXPECT_EQ(discover_wasm_opt(environment_of({{"XDG_CACHE_HOME", (scratch / "xdg").string()}})).version, 132);
}

TEST_F(WasmOptDiscovery, NothingUsableListsWhatWasFound) {
  try {
    discover_wasm_opt(environment_of({{"PATH", (scratch / "old").string()},
                                      {"LLGO_WASM_TOOLCHAIN_DIR", (scratch / "missing").string()}}));
    FAIL() << "Binaryen 108 was accepted";
  } catch (const WasmOptDiscoveryError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("PATH: " + (scratch / "old" / "wasm-opt").string() + " is Binaryen 108"), std::string::npos) << message;
    EXPECT_NE(message.find("setup folder: " + (scratch / "missing" / "bin" / "wasm-opt").string() + " does not exist"), std::string::npos) << message;
    EXPECT_NE(message.find(">= 125"), std::string::npos) << message;
  }
  EXPECT_THROW(discover_wasm_opt(environment_of({{"WASMOPT", (scratch / "nowhere").string()}})), WasmOptDiscoveryError);
}
