// The built-in DescriptorSet, from the precompiled descriptors the build embeds
// (driver/tools/precompile_targets.cpp loads and checks targets/*.json at build time): a process
// that resolves a built-in target parses no descriptor, which is most of llgo-wasm's start-up.
#include "llgo_wasm/descriptors.hpp"
#include "precompiled_targets.hpp"

namespace llgo_wasm {

const DescriptorSet& builtin_descriptors() {
  // Never destroyed: a process should not spend its exit freeing what it is about to drop.
  static const DescriptorSet& set = *new DescriptorSet(DescriptorSet::from_precompiled(
      detail::kPrecompiledTargets, detail::kPrecompiledTargetsSize, builtin_descriptor_sources()));
  return set;
}

}  // namespace llgo_wasm
