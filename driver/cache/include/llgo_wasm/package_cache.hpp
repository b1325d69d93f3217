// The package cache a build talks to: the local store, optionally backed by a remote cache.
//
//   get: local hit -> done; else remote entry + blobs (each verified) fill the local store,
//        then the outputs are copied out of it as from a local hit.
//   put: local store, then (unless remote writes are off) blobs the remote lacks, then the
//        entry, so the remote never shows an entry whose blobs are not there yet.
//
// The cache is an optimisation and never fails a build:
// - The remote: the first transport failure, 5xx answer or bound hit (remote_cache.hpp: bytes
//   past what the entry declares, an operation past its deadline) prints one warning, turns the
//   remote off for the rest of this PackageCache, and leaves a note in the local cache directory
//   so that other processes of the same build skip that remote for a minute instead of each
//   waiting for the timeout; what the failed get had downloaded is removed again. An entry past
//   the bounds of cache_entry.hpp (bytes, nesting, number of outputs) is such a bound hit too. A
//   remote entry that does not parse otherwise (a layout that cannot be written out, names past
//   what a file system takes) or a remote blob whose bytes hash differently is a miss with a
//   warning, not an outage; nothing of it is stored.
// - The local directory: one that cannot be created or written, or that belongs to another user
//   (unless `shared_dir`: a directory another user can write could hand this one any bytes),
//   prints one warning and turns caching off for the process: get and has miss, put stores
//   nothing. The same happens when the local store fails later (a full disk).
// Secrets: the remote URL is shown and written down only through display_url() (no credentials),
// and the note names the remote by the SHA-256 of its URL.
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
  bool shared_dir = false;  // use `dir` even when another user owns it
  std::string remote_url;   // empty: local only
  bool remote_writes = true;
  std::chrono::milliseconds remote_timeout{5000};
  int remote_attempts = 2;
  std::string remote_netrc;                 // empty: ~/.netrc if present
  std::vector<std::string> remote_headers;  // from a header file (read_header_file)
  // How long a failed remote is skipped by later processes using the same local directory.
  std::chrono::seconds remote_skip_after_failure{60};
};

// Defaults from the environment: LLGO_WASM_CACHE_DIR (default_cache_dir(); `dir` overrides it),
// LLGO_WASM_CACHE_MAX_SIZE ("2G"), LLGO_WASM_CACHE_SHARED=1, LLGO_WASM_REMOTE_CACHE (URL),
// LLGO_WASM_REMOTE_CACHE_READ_ONLY=1, LLGO_WASM_REMOTE_CACHE_TIMEOUT (seconds, may be
// fractional), LLGO_WASM_REMOTE_CACHE_NETRC (file), LLGO_WASM_REMOTE_CACHE_HEADER_FILE (file).
// Throws DriverError on bad values.
PackageCacheConfig package_cache_config_from_environment(const std::optional<std::filesystem::path>& dir = {});

// From JSON without reading the environment (the C API): {"cache_dir": "...", "max_size": "2G",
// "shared_cache_dir": false, "remote": "http://...", "remote_read_only": false, "remote_timeout": 5,
// "remote_netrc": "...", "remote_header_file": "..."}; only cache_dir is required.
PackageCacheConfig package_cache_config_from_json(const nlohmann::json& request);

// "2.5" -> 2500 ms, rounded up to whole milliseconds (so 0.0001 is 1 ms, never 0, which curl
// would read as its 300 s default); throws DriverError unless a number of seconds in (0, 3600].
std::chrono::milliseconds parse_seconds(std::string_view text);

// The header lines of a header file: one "Name: value" a line; empty lines and lines starting
// with '#' are skipped. Errors name the file and the line number, never a line's text.
std::vector<std::string> read_header_file(const std::filesystem::path& file);

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
  bool local_disabled = false;  // caching was off (an unusable local directory)
};

class PackageCache;
// {"dir", "entries", "blobs", "temporaries", "bytes", "max-bytes", "remote", "remote-writes"}
// ("remote" without credentials).
nlohmann::json cache_stats_to_json(PackageCache& cache);

class PackageCache {
 public:
  using Warn = std::function<void(const std::string&)>;
  PackageCache(PackageCacheConfig config, Warn warn);
  ~PackageCache();

  // `expected`: the output names the caller wants; an entry listing others is a miss.
  std::optional<CacheHit> get(std::string_view key, const std::filesystem::path& destination, std::string* why = nullptr,
                              const std::vector<std::string>* expected = nullptr);
  std::optional<CacheSource> has(std::string_view key);
  // The entry stored, or (caching off) the one that would have been.
  CacheEntry put(std::string_view key, const std::vector<std::pair<std::string, std::filesystem::path>>& outputs,
                 const nlohmann::json& metadata);

  CacheStore& local() { return local_; }
  const PackageCacheConfig& config() const { return config_; }
  PackageCacheCounts counts() const;
  // Throws DriverError when another user owns the local directory and `shared_dir` is off: for
  // commands that change the store on purpose (trim), which should say so rather than warn.
  void check_local_owner() const;

 private:
  bool usable_local();
  void local_failed(const std::string& what);
  RemoteCache* usable_remote();
  void remote_failed(const std::string& what);
  std::optional<CacheEntry> fill_from_remote(std::string_view key, std::string* why,
                                             const std::vector<std::string>* expected);
  std::optional<CacheEntry> fetch_remote_entry(RemoteCache& remote, std::string_view key, std::string* why,
                                               const std::vector<std::string>* expected);

  PackageCacheConfig config_;
  Warn warn_;
  CacheStore local_;
  std::unique_ptr<RemoteCache> remote_;
  bool remote_checked_ = false;
  bool local_checked_ = false;
  std::string local_off_;  // why caching is off, once it is
  PackageCacheCounts counts_;
};

}  // namespace llgo_wasm
