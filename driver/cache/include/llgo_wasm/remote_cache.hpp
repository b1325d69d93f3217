// A client of the Bazel HTTP remote-cache protocol, on libcurl:
//   GET|HEAD|PUT <base>/ac/<key>       action entries (our cache_entry.hpp JSON)
//   GET|PUT <base>/cas/<sha256>        blobs
// 200 is a hit, 404 a miss; anything else, and any transport failure, is a RemoteCacheError
// after the bounded retries. Downloads stream into a BlobWriter, which verifies the digest; this
// class does not decide what a failure means for a build (package_cache.hpp does).
//
// Every read is bounded, because the server may be hostile or broken (docs/cache.md, "Bounds"):
// - bytes: an entry at most kMaxCacheEntryBytes, a blob at most the size its entry declares
//   (more is refused as it arrives, and at once when Content-Length says so);
// - time: each attempt has a connect timeout and a stall timeout (less than one byte moved during
//   `timeout`), and each operation (begin_operation: one get, has or put) a deadline of
//   attempts x timeout plus its declared bytes at kMinimumTransferRate, which covers the retries:
//   a server that drips a byte a second cannot hold it longer.
// A bound that is hit is a RemoteCacheBoundError (never retried). Credentials in the URL are used
// but never shown: messages name display_url(url). Credentials can also come from a netrc file
// or from header lines (options below).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "llgo_wasm/cache_store.hpp"

namespace llgo_wasm {

class RemoteCacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The server sent more than allowed, or the operation ran past its deadline.
class RemoteCacheBoundError : public RemoteCacheError {
 public:
  using RemoteCacheError::RemoteCacheError;
};

// The slowest transfer an operation's deadline allows for the bytes it declares: a large blob
// that keeps moving at this rate or faster is never cut off.
inline constexpr std::uint64_t kMinimumTransferRate = 1 << 20;  // bytes per second

struct RemoteCacheOptions {
  std::string url;  // http://host:port/prefix (no trailing slash needed)
  std::chrono::milliseconds timeout{5000};
  int attempts = 2;  // 1 + retries, for transport failures and 5xx answers
  // A netrc file with the server's credentials; empty: ~/.netrc when it exists (as curl -n).
  std::string netrc_file;
  // Header lines sent with every request ("Authorization: Bearer ..."); never shown.
  std::vector<std::string> headers;
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

  // Starts an operation: its deadline is attempts x timeout from now, plus `bytes` at
  // kMinimumTransferRate. allow() adds bytes learnt on the way (the blobs an entry names).
  // Without begin_operation() only the per-attempt timeouts apply.
  void begin_operation(std::uint64_t bytes = 0);
  void allow(std::uint64_t bytes);

  // The entry's bytes, or nullopt on 404.
  std::optional<std::string> get_entry(std::string_view key);
  bool has_entry(std::string_view key);
  void put_entry(std::string_view key, const std::string& text);

  enum class BlobFetch { stored, missing, corrupted };
  // Streams /cas/<digest> into `store` (through a BlobWriter, which verifies the digest):
  // stored, missing (404) or corrupted (fewer bytes than `size`, or bytes that hash differently;
  // nothing is stored). More than `size` bytes is a RemoteCacheBoundError.
  BlobFetch get_blob(std::string_view digest, std::uint64_t size, CacheStore& store);
  void put_blob(std::string_view digest, const std::filesystem::path& file);

  const RemoteTransferCounts& counts() const { return counts_; }

 private:
  // One request with the bounded retries; returns the HTTP status (200, 404, ...) of the last
  // attempt that got an answer below 500, throws RemoteCacheError otherwise.
  struct Body;
  static std::size_t on_receive(char* data, std::size_t size, std::size_t count, void* user);
  long request(const char* method, const std::string& path, Body& body);
  long attempt(const char* method, const std::string& url, Body& body, std::string& failure);
  void put(const std::string& path, Body& body);
  std::chrono::milliseconds remaining() const;

  RemoteCacheOptions options_;
  void* curl_;     // CURL*, reused so connections are kept alive between requests
  void* headers_;  // curl_slist* of options_.headers
  RemoteTransferCounts counts_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::chrono::milliseconds budget_{0};  // of the current operation, for messages
};

// Accepts http:// and https:// URLs; throws DriverError naming the problem otherwise.
void check_remote_cache_url(std::string_view url);

// The URL as it may be shown or written down: a "user:password@" in it becomes "***@".
std::string display_url(std::string_view url);

}  // namespace llgo_wasm
