// An action entry of the package cache: what one build step under one cache key produced.
//
// The entry maps the key to the outputs' names and SHA-256 digests (the blobs themselves live
// in the content-addressed store) plus metadata: the tool versions, the sizes and the time the
// build took. Its serialised form is UTF-8 JSON,
//   {"format": "llgo-wasm-cache-entry/1", "key": "<64 hex>",
//    "outputs": [{"name": "lib/libllgo_runtime.a", "sha256": "<64 hex>", "size": 12345}, ...],
//    "metadata": {"tools": {"clang": "19.1.7"}, "build-seconds": 1.25, ...}}
// and the same bytes are stored locally (ac/) and on a Bazel HTTP remote cache (/ac/<key>).
// Parsing checks everything a hostile or corrupted server could get wrong: the format, that the
// entry is for the key asked for, digests spelled as SHA-256, output names that stay inside
// the destination (relative, no "..", no empty or "." parts), and that the entry can be written
// out as a whole: within the bounds below, and no output that is a directory of another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm {

inline constexpr std::string_view kCacheEntryFormat = "llgo-wasm-cache-entry/1";

// Bounds on an entry (docs/cache.md, "Bounds"). Real entries list a few outputs and are a few
// KiB; the bounds keep what a hostile server can make a reader parse, download and write small.
inline constexpr std::size_t kMaxCacheEntryBytes = 1 << 20;  // the serialised entry
inline constexpr std::size_t kMaxCacheOutputs = 1000;         // outputs of one entry
// Output names: what every Linux file system takes (NAME_MAX is 255 bytes per part), and short
// enough that a destination directory of up to ~3000 bytes still fits PATH_MAX (4096).
inline constexpr std::size_t kMaxOutputNameBytes = 1024;
inline constexpr std::size_t kMaxOutputNamePartBytes = 255;
inline constexpr std::size_t kMaxOutputNameDepth = 32;  // parts ('/'-separated)

struct CacheOutput {
  std::string name;    // relative, '/'-separated: where get() puts it under the destination
  std::string sha256;  // digest of the contents, hex
  std::uint64_t size = 0;
};

struct CacheEntry {
  std::string key;
  std::vector<CacheOutput> outputs;  // sorted by name, names unique
  nlohmann::json metadata = nlohmann::json::object();
};

nlohmann::json cache_entry_to_json(const CacheEntry& entry);
std::string serialize_cache_entry(const CacheEntry& entry);  // cache_entry_to_json as text

// An entry past one of the bounds above that a reader can tell before looking at its outputs:
// its bytes, its nesting, the number of its outputs. From a remote, it is a bound hit (the remote
// is turned off), not just a bad entry.
class CacheEntryBoundError : public DriverError {
 public:
  using DriverError::DriverError;
};

// Throws DriverError naming what is wrong when `text` is not an entry for `expected_key`
// (CacheEntryBoundError when it is past a bound).
CacheEntry parse_cache_entry(std::string_view text, std::string_view expected_key);

// Throws DriverError unless `name` is a relative '/'-separated path without "..", "." or empty
// parts, within the name bounds above.
void check_output_name(std::string_view name);

// Throws DriverError unless the outputs can all be written under one directory: unique names, at
// most kMaxCacheOutputs of them, and none a directory of another ("lib" and "lib/x.a").
void check_output_layout(const std::vector<std::string_view>& names);

// Throws DriverError unless `key` is 64 lowercase hex digits.
void check_cache_key(std::string_view key);

}  // namespace llgo_wasm
