// A client of the Bazel HTTP remote-cache protocol, on libcurl:
//   GET|HEAD|PUT <base>/ac/<key>       action entries (our cache_entry.hpp JSON)
//   GET|PUT <base>/cas/<sha256>        blobs
// 200 is a hit, 404 a miss; anything else, and any transport failure, is a RemoteCacheError
// after the bounded retries. Every request has a connect timeout and a stall timeout (the
// transfer aborts when less than one byte moved during `timeout`), so a hanging server costs at
// most attempts x timeout. Downloads stream into a BlobWriter, which verifies the digest; this
// class does not decide what a failure means for a build (package_cache.hpp does).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "llgo_wasm/cache_store.hpp"

namespace llgo_wasm {

class RemoteCacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RemoteCacheOptions {
  std::string url;  // http://host:port/prefix (no trailing slash needed)
  std::chrono::milliseconds timeout{5000};
  int attempts = 2;  // 1 + retries, for transport failures and 5xx answers
};

struct RemoteTransferCounts {
  std::uint64_t bytes_downloaded = 0;
  std::uint64_t bytes_uploaded = 0;
  std::uint64_t requests = 0;
};

class RemoteCache {
 public:
  explicit RemoteCache(RemoteCacheOptions options);
  ~RemoteCache();
  RemoteCache(const RemoteCache&) = delete;
  RemoteCache& operator=(const RemoteCache&) = delete;

  const std::string& url() const { return options_.url; }

  // The entry's bytes, or nullopt on 404.
  std::optional<std::string> get_entry(std::string_view key);
  bool has_entry(std::string_view key);
  void put_entry(std::string_view key, const std::string& text);

  enum class BlobFetch { stored, missing, corrupted };
  // Streams /cas/<digest> into `store` (through a BlobWriter, which verifies the digest):
  // stored, missing (404) or corrupted (the bytes hash differently; nothing is stored).
  BlobFetch get_blob(std::string_view digest, CacheStore& store);
  void put_blob(std::string_view digest, const std::filesystem::path& file);

  const RemoteTransferCounts& counts() const { return counts_; }

 private:
  // One request with the bounded retries; returns the HTTP status (200, 404, ...) of the last
  // attempt that got an answer below 500, throws RemoteCacheError otherwise. `sink` receives a
  // GET's body (a fresh one per attempt), `upload` supplies a PUT's.
  struct Body;
  long request(const char* method, const std::string& path, Body& body);
  long attempt(const char* method, const std::string& url, Body& body, std::string& failure);
  void put(const std::string& path, Body& body);

  RemoteCacheOptions options_;
  void* curl_;  // CURL*, reused so connections are kept alive between requests
  RemoteTransferCounts counts_;
};

// Accepts http:// and https:// URLs; throws DriverError naming the problem otherwise.
void check_remote_cache_url(std::string_view url);

}  // namespace llgo_wasm
