// See output_naming.hpp.
#include "llgo_wasm/output_naming.hpp"

#include <algorithm>
#include <filesystem>

#include "llgo_wasm/error.hpp"
#include "suggest.hpp"

namespace llgo_wasm {

std::string_view to_string(OutputFormat format) {
  switch (format) {
    case OutputFormat::Script: return "script";
    case OutputFormat::EsModule: return "es-module";
    case OutputFormat::WasmModule: return "wasm-module";
    case OutputFormat::Executable: return "executable";
  }
  return "?";
}

OutputName name_output(const TargetSpec& spec, const std::string& requested) {
  std::filesystem::path path(requested);
  if (requested.empty() || !path.has_filename()) {
    throw DriverError("output name \"" + requested + "\" names no file");
  }
  const OutputPolicy& policy = spec.output;
  if (policy.default_extension.empty() && policy.accepted_extensions.empty()) {
    return {requested, OutputFormat::Executable};
  }
  std::string extension = path.extension().string();
  std::string named = requested;
  if (extension.empty()) {
    extension = policy.default_extension;
    named += extension;
  } else if (std::find(policy.accepted_extensions.begin(), policy.accepted_extensions.end(), extension) ==
             policy.accepted_extensions.end()) {
    throw DriverError("output \"" + requested + "\" ends in " + extension + ", which target " + spec.name + " (" +
                      spec.variant + ") does not write; use " +
                      detail::join(policy.accepted_extensions, " or ") + ", or leave the extension off for " +
                      policy.default_extension);
  }
  OutputFormat format = extension == ".mjs"  ? OutputFormat::EsModule
                        : extension == ".js" ? OutputFormat::Script
                                             : OutputFormat::WasmModule;
  return {named, format};
}

}  // namespace llgo_wasm
