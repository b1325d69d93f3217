// The built-in descriptors, loaded and checked at build time by driver/tools/precompile_targets.cpp
// and embedded as DescriptorSet::precompiled() bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace llgo_wasm::detail {

extern const std::uint8_t kPrecompiledTargets[];
extern const std::size_t kPrecompiledTargetsSize;

}  // namespace llgo_wasm::detail
