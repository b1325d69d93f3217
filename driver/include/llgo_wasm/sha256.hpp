// Incremental SHA-256 (OpenSSL libcrypto's EVP interface), for cache keys and for the
// content-addressed cache, which hashes blobs while it copies or downloads them.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace llgo_wasm {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  // The digest as 64 lowercase hex digits; the object is spent afterwards.
  std::string hex();

 private:
  std::unique_ptr<evp_md_ctx_st, void (*)(evp_md_ctx_st*)> context_;
};

// True for 64 lowercase hex digits (the spelling of every digest and key).
bool is_sha256_hex(std::string_view text);

}  // namespace llgo_wasm
