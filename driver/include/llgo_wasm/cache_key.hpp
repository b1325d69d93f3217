// Package-build cache keys.
//
// key = SHA-256 over a canonical, versioned encoding of:
//   - the resolved target's ABI-relevant fields (abi_fields below);
//   - toolchain identity: name -> version string (clang, binaryen, emscripten, ...);
//   - flags, in order (order changes meaning for compilers);
//   - the effective build environment (from the resolved target);
//   - the package's input files: '/'-separated paths relative to the package root,
//     each with the SHA-256 of its contents, sorted by path (order-independent);
//   - dependency keys, sorted (order-independent).
// Absolute paths never enter the encoding, so a key is the same in every checkout.
// Changing kCacheKeyFormat invalidates every key; bump it when the encoding changes.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

inline constexpr std::string_view kCacheKeyFormat = "llgo-wasm-cache-key/2";

struct CacheKeyRequest {
  std::map<std::string, std::string> toolchain;
  std::vector<std::string> flags;
  std::filesystem::path package_root;
  // Paths relative to package_root (or absolute paths inside it). Empty: every
  // regular file under the root, skipping names that start with '.'.
  std::vector<std::string> files;
  std::vector<std::string> dependency_keys;
};

struct PackageInput {
  std::string path;    // relative, '/'-separated
  std::string digest;  // SHA-256 of the contents, hex
};

struct CacheKey {
  std::string hex;                   // 64 hex digits
  std::vector<PackageInput> inputs;  // sorted by path
};

// The ABI-relevant fields of a resolved target, as name/value text pairs in a fixed order,
// derived from its serialised form (target_to_json), so a new descriptor key takes part in
// the key unless it is listed as non-ABI. Names are dotted key paths ("data-model.pointer").
// Fields that cannot change generated code (name, run-engines, engines, output extensions,
// descriptor file names, where GOOS came from, the supported-context list) are left out, and
// so is the derived "effective" record, which follows from the fields that are in.
std::vector<std::pair<std::string, std::string>> abi_fields(const ResolvedTarget& target);

// The bytes that are hashed (exposed for tests and `cache-key --explain`).
std::string canonical_cache_key_encoding(const ResolvedTarget& target, const CacheKeyRequest& request,
                                         const std::vector<PackageInput>& inputs);

// Reads and digests the package inputs, then hashes the encoding.
CacheKey compute_cache_key(const ResolvedTarget& target, const CacheKeyRequest& request);

// {"key", "format", "inputs": [{"path", "sha256"}]}
nlohmann::json cache_key_to_json(const CacheKey& key);

// SHA-256 of a file's contents / of bytes, as lowercase hex.
std::string sha256_file_hex(const std::filesystem::path& path);
std::string sha256_hex(std::string_view bytes);

}  // namespace llgo_wasm
