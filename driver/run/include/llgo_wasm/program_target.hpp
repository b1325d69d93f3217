// Which built-in target wrote a program, told from the program itself, for `llgo-wasm run`
// without --target: its extension must be one the target writes, and a WebAssembly module (the
// program, or the .wasm an Emscripten .js/.mjs loads, beside it) must agree with the target's
// capabilities: a shared memory with threads, a 64-bit memory with memory64, stack-switching
// instructions with stack-switching. A file that is no WebAssembly module and has an extension
// no wasm target writes is the host's. Among several, a platform default wins.
#pragma once

#include <string>

#include "llgo_wasm/descriptors.hpp"

namespace llgo_wasm {

// The target's name; throws DriverError (exit 2) when no target or the program cannot be read.
std::string infer_program_target(const DescriptorSet& descriptors, const std::string& program);

}  // namespace llgo_wasm
