// The driver's limits on user-written input: descriptors and //llgo:build lines.
//
// The library runs inside a compiler's process (through cgo), so no input may exhaust its
// stack, its memory or its time. Each limit is far above anything a real descriptor or
// runtime source needs (the built-in descriptors are under 2 KB, nest 4 levels deep and
// inherit 3 levels; real constraints are under 80 characters and nest 2 levels), and each
// one is refused with a DriverError naming file:line:col and the limit. The parsing and
// merging code itself is iterative or recursive only to these bounded depths.
// docs/reliability.md lists the limits and the tests that guard them.
#pragma once

#include <cstddef>

namespace llgo_wasm::limits {

// Bytes in one descriptor file (larger files are not read past this).
inline constexpr std::size_t kMaxDescriptorBytes = 1 << 20;
// Nesting depth of JSON arrays and objects, in descriptors and in C API requests
// (the top-level object is depth 1; the schema needs 4).
inline constexpr std::size_t kMaxJsonNestingDepth = 64;
// Descriptors on one inheritance path, the descriptor itself included.
inline constexpr std::size_t kMaxInheritanceDepth = 32;
// Characters in one //llgo:build expression.
inline constexpr std::size_t kMaxConstraintLength = 4096;
// Nesting of "(" and "!" in one //llgo:build expression.
inline constexpr std::size_t kMaxConstraintNesting = 64;

}  // namespace llgo_wasm::limits
