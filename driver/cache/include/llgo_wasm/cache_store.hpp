// The local content-addressed cache: a directory laid out like the Bazel remote cache,
//   <root>/ac/<key[0:2]>/<key>        action entries (cache_entry.hpp), by cache key
//   <root>/cas/<sha[0:2]>/<sha256>    blobs, by the SHA-256 of their contents
//   <root>/tmp/                       temporaries, renamed into ac/ and cas/ when complete
// Every file appears by rename(2) of a complete temporary on the same file system, so a crash
// or a concurrent writer never leaves a partial blob or entry visible; two writers of one key
// each publish a complete entry and the last rename wins. Blobs are written before the entry
// that names them, and an entry is written only if it parses back (cache_entry.hpp: within the
// bounds, writable as a whole). Reads verify: an entry that does not parse, or a blob whose
// contents no longer hash to its name or whose size is not the entry's, is removed and the
// lookup is a miss. Last use is the entry's mtime (set on every hit); trim() removes the least
// recently used entries until the total fits, then the blobs no entry names, and temporaries
// older than an hour (left by killed processes); stats() and the bound count temporaries too.
//
// Limits: no locking, so a trim running beside a put may remove a blob the put has just stored
// before its entry appeared (unreferenced blobs younger than `grace` are kept for that reason); the
// reader then sees a miss, never wrong bytes. Output files are written mode 0644.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "llgo_wasm/cache_entry.hpp"
#include "llgo_wasm/error.hpp"

namespace llgo_wasm {

// The local file system failed the cache (a full disk, an unwritable or odd directory): the
// cache's trouble, not a mistake in the caller's input. PackageCache turns it into a warning.
class CacheIoError : public DriverError {
 public:
  using DriverError::DriverError;
};

struct CacheStats {
  std::uint64_t entries = 0;
  std::uint64_t blobs = 0;
  std::uint64_t temporaries = 0;  // files in tmp/: writes in progress, or left by killed processes
  std::uint64_t bytes = 0;        // entries, blobs and temporaries
};

struct TrimResult {
  std::uint64_t removed_entries = 0;
  std::uint64_t removed_blobs = 0;
  std::uint64_t bytes_after = 0;
};

// A blob being written: bytes go to a temporary and into a running SHA-256; commit() publishes
// it under its digest if that is the expected one. Destroying an uncommitted writer removes the
// temporary.
class BlobWriter {
 public:
  BlobWriter(const std::filesystem::path& temporary_dir, std::filesystem::path cas_dir);
  ~BlobWriter();
  BlobWriter(const BlobWriter&) = delete;
  BlobWriter& operator=(const BlobWriter&) = delete;
  void write(const void* data, std::size_t size);
  std::uint64_t size() const { return size_; }
  // Publishes the blob when its digest equals `expected` (or `expected` is empty) and returns the
  // digest; returns nullopt and discards the bytes when it differs.
  std::optional<std::string> commit(std::string_view expected = {});

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::filesystem::path cas_dir_;
  std::uint64_t size_ = 0;
};

class CacheStore {
 public:
  // `max_bytes` 0: unbounded; otherwise put() trims to it.
  explicit CacheStore(std::filesystem::path root, std::uint64_t max_bytes = 0);

  const std::filesystem::path& root() const { return root_; }
  std::uint64_t max_bytes() const { return max_bytes_; }

  // Stores the files (name -> path) and the entry. Metadata gets "sizes" filled in by the store.
  CacheEntry put(std::string_view key, const std::vector<std::pair<std::string, std::filesystem::path>>& outputs,
                 const nlohmann::json& metadata);

  // Copies every output of the entry under `destination` (creating directories), each verified
  // against its digest and size and published by rename only once all are verified
  // (output_staging.hpp). A miss (no entry, an unreadable entry, a missing or corrupted blob, an
  // entry whose outputs are not `expected` when that is given, a destination the outputs cannot
  // be written to) returns nullopt with the reason in *why and leaves the destination as it was;
  // a bad entry or blob is removed. Also sweeps what killed gets left in the destination.
  std::optional<CacheEntry> get(std::string_view key, const std::filesystem::path& destination,
                                std::string* why = nullptr, const std::vector<std::string>* expected = nullptr);

  // The entry exists, parses, and each blob it names exists with the recorded size (no hashing).
  bool has(std::string_view key);

  // Reading and writing the parts, for the remote layer.
  std::optional<CacheEntry> read_entry(std::string_view key, std::string* why = nullptr);
  void write_entry(const CacheEntry& entry);
  bool has_blob(std::string_view digest) const;
  std::filesystem::path blob_path(std::string_view digest) const;
  std::filesystem::path entry_path(std::string_view key) const;
  std::unique_ptr<BlobWriter> new_blob();
  void remove_blob(std::string_view digest);
  void remove_entry(std::string_view key);

  CacheStats stats() const;
  TrimResult trim(std::uint64_t max_bytes, std::chrono::seconds grace = std::chrono::minutes(10));

 private:
  std::filesystem::path root_;
  std::uint64_t max_bytes_;
};

// The entry put() would store, without storing anything: the outputs hashed where they are.
CacheEntry describe_outputs(std::string_view key,
                            const std::vector<std::pair<std::string, std::filesystem::path>>& outputs,
                            const nlohmann::json& metadata);

// Throws DriverError unless the entry's output names are exactly `expected` (in any order).
void check_expected_outputs(const CacheEntry& entry, const std::vector<std::string>& expected);

// The default local cache directory: $LLGO_WASM_CACHE_DIR, else $XDG_CACHE_HOME/llgo-wasm/build-cache,
// else $HOME/.cache/llgo-wasm/build-cache. Throws DriverError when none can be found.
std::filesystem::path default_cache_dir();

// "500M", "2G", "123456", "64K" -> bytes. Throws DriverError on anything else.
std::uint64_t parse_size(std::string_view text);

}  // namespace llgo_wasm
