// libFuzzer target: bytes -> the wasm module reader -> the validator with the expectations of
// every built-in target whose modules the driver checks (P1, P1T), as the link pipeline runs it
// on a module wasm-opt wrote. A WasmDecodeError is a correct answer.
#include <cstdint>
#include <vector>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"
#include "llgo_wasm/wasm_module_validation.hpp"

namespace {

const std::vector<llgo_wasm::ModuleExpectations>& checked_targets() {
  static const std::vector<llgo_wasm::ModuleExpectations> expectations = [] {
    std::vector<llgo_wasm::ModuleExpectations> list;
    for (const auto& target : llgo_wasm::builtin_descriptors().targets()) {
      if (llgo_wasm::is_checked_wasi_module(target.spec)) list.push_back(llgo_wasm::expectations_for(target.spec));
    }
    return list;
  }();
  return expectations;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace llgo_wasm;
  const std::vector<std::uint8_t> bytes(data, data + size);
  try {
    WasmModuleSummary module = read_wasm_module(bytes);
    for (const auto& expectations : checked_targets()) validate_module(module, expectations);
    for (const auto& site : module.legacy_eh_sites) {
      (void)exception_opcode_name(site.opcode);
      (void)module.function_name(site.function_index);
    }
  } catch (const WasmDecodeError&) {
  }
  return 0;
}
