// The built-in descriptors (targets/*.json) and their schema (targets/schema.json), embedded
// at build time by driver/cmake/EmbedDescriptors.cmake so the CLI and the library work from
// any directory. File names are kept ("targets/wasm.json") for messages.
#pragma once

#include <cstddef>

namespace llgo_wasm::detail {

struct EmbeddedFile {
  const char* name;
  const unsigned char* data;
  std::size_t size;
};

extern const EmbeddedFile kEmbeddedDescriptors[];
extern const std::size_t kEmbeddedDescriptorCount;
extern const EmbeddedFile kEmbeddedSchema;

}  // namespace llgo_wasm::detail
