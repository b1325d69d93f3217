// libFuzzer target: bytes -> the wasm module reader -> the P1 and P1T validators, as the
// link pipeline runs them on a module wasm-opt wrote. A WasmDecodeError is a correct answer.
#include <cstdint>
#include <vector>

#include "llgo_wasm/wasm_module_reader.hpp"
#include "llgo_wasm/wasm_module_validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace llgo_wasm;
  const std::vector<std::uint8_t> bytes(data, data + size);
  try {
    WasmModuleSummary module = read_wasm_module(bytes);
    for (const char* variant : {"P1", "P1T"}) validate_module(module, expectations_for_variant(variant));
    for (const auto& site : module.legacy_eh_sites) {
      (void)exception_opcode_name(site.opcode);
      (void)module.function_name(site.function_index);
    }
  } catch (const WasmDecodeError&) {
  }
  return 0;
}
