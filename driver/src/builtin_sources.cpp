// The embedded sources of the built-in descriptors (targets/*.json), as DescriptorSources.
#include "embedded_descriptors.hpp"
#include "llgo_wasm/descriptors.hpp"

namespace llgo_wasm {

const std::vector<DescriptorSource>& builtin_descriptor_sources() {
  static const std::vector<DescriptorSource> sources = [] {
    std::vector<DescriptorSource> out;
    for (std::size_t i = 0; i < detail::kEmbeddedDescriptorCount; ++i) {
      const auto& file = detail::kEmbeddedDescriptors[i];
      out.push_back({file.name, std::string(reinterpret_cast<const char*>(file.data), file.size)});
    }
    return out;
  }();
  return sources;
}

}  // namespace llgo_wasm
