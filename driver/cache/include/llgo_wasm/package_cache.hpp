// The package cache a build talks to: the local store, optionally backed by a remote cache.
//
//   get: local hit -> done; else remote entry + blobs (each verified) fill the local store,
//        then the outputs are copied out of it as from a local hit.
//   put: local store, then (unless remote writes are off) blobs the remote lacks, then the
//        entry, so the remote never shows an entry whose blobs are not there yet.
//
// The remote is an optimisation and never fails a build: the first transport failure or 5xx
// answer prints one warning, turns the remote off for the rest of this PackageCache, and leaves
// a note in the local cache directory so that other processes of the same build skip that remote
// for a minute instead of each waiting for the timeout. A remote entry that does not parse or a
// remote blob whose bytes hash differently is a miss (with a warning), not an outage.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/cache_store.hpp"
#include "llgo_wasm/remote_cache.hpp"

namespace llgo_wasm {

struct PackageCacheConfig {
  std::filesystem::path dir;  // local store
  std::uint64_t max_bytes = 0;
  std::string remote_url;  // empty: local only
  bool remote_writes = true;
  std::chrono::milliseconds remote_timeout{5000};
  int remote_attempts = 2;
  // How long a failed remote is skipped by later processes using the same local directory.
  std::chrono::seconds remote_skip_after_failure{60};
};

// Defaults from the environment: LLGO_WASM_CACHE_DIR (default_cache_dir(); `dir` overrides it),
// LLGO_WASM_CACHE_MAX_SIZE ("2G"), LLGO_WASM_REMOTE_CACHE (URL), LLGO_WASM_REMOTE_CACHE_READ_ONLY=1,
// LLGO_WASM_REMOTE_CACHE_TIMEOUT (seconds, may be fractional). Throws DriverError on bad values.
PackageCacheConfig package_cache_config_from_environment(const std::optional<std::filesystem::path>& dir = {});

// From JSON without reading the environment (the C API): {"cache_dir": "...", "max_size": "2G",
// "remote": "http://...", "remote_read_only": false, "remote_timeout": 5}; only cache_dir is required.
PackageCacheConfig package_cache_config_from_json(const nlohmann::json& request);

// "2.5" -> 2500 ms; throws DriverError unless a number of seconds in (0, 3600].
std::chrono::milliseconds parse_seconds(std::string_view text);

enum class CacheSource { local, remote };
const char* to_string(CacheSource source);

struct CacheHit {
  CacheEntry entry;
  CacheSource source;
};

struct PackageCacheCounts {
  std::uint64_t local_hits = 0, remote_hits = 0, misses = 0;
  RemoteTransferCounts remote;
  bool remote_disabled = false;
};

class PackageCache;
// {"dir", "entries", "blobs", "bytes", "max-bytes", "remote", "remote-writes"}
nlohmann::json cache_stats_to_json(PackageCache& cache);

class PackageCache {
 public:
  using Warn = std::function<void(const std::string&)>;
  PackageCache(PackageCacheConfig config, Warn warn);
  ~PackageCache();

  std::optional<CacheHit> get(std::string_view key, const std::filesystem::path& destination, std::string* why = nullptr);
  std::optional<CacheSource> has(std::string_view key);
  CacheEntry put(std::string_view key, const std::vector<std::pair<std::string, std::filesystem::path>>& outputs,
                 const nlohmann::json& metadata);

  CacheStore& local() { return local_; }
  const PackageCacheConfig& config() const { return config_; }
  PackageCacheCounts counts() const;

 private:
  RemoteCache* usable_remote();
  void remote_failed(const std::string& what);
  std::optional<CacheEntry> fill_from_remote(std::string_view key, std::string* why);

  PackageCacheConfig config_;
  Warn warn_;
  CacheStore local_;
  std::unique_ptr<RemoteCache> remote_;
  bool remote_checked_ = false;
  PackageCacheCounts counts_;
};

}  // namespace llgo_wasm
