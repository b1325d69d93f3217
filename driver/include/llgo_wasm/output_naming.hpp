// Output naming: the file a build of a target writes.
//
// A name without an extension gets the target's default one (".js", ".wasm"); a
// name with an extension must use one the target accepts (J32/J64: ".js" or ".mjs",
// where ".mjs" means an ES module; P1/P1T: ".wasm"). Native targets have no
// extension policy: the name is used as given.
#pragma once

#include <string>
#include <string_view>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

enum class OutputFormat { Script, EsModule, WasmModule, Executable };
std::string_view to_string(OutputFormat);

struct OutputName {
  std::string path;
  OutputFormat format;
};

// Throws DriverError naming the accepted extensions when `requested` has another one.
OutputName name_output(const TargetSpec& spec, const std::string& requested);

}  // namespace llgo_wasm
