// See package_cache.hpp.
#include "llgo_wasm/package_cache.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/sha256.hpp"
#include "temporary_file.hpp"

namespace llgo_wasm {
namespace fs = std::filesystem;

namespace {

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// The note a failed remote leaves: "<SHA-256 of the URL>\n<reason>\n", its mtime saying when. The
// digest, not the URL, so that credentials in the URL never reach the disk.
fs::path failure_note(const fs::path& dir) { return dir / "remote-unavailable"; }

std::string url_digest(const std::string& url) {
  Sha256 digest;
  digest.update(url.data(), url.size());
  return digest.hex();
}

std::string user_name(uid_t uid) {
  struct passwd* entry = ::getpwuid(uid);
  return entry ? std::string(entry->pw_name) + " (uid " + std::to_string(uid) + ")" : "uid " + std::to_string(uid);
}

// Why another user's directory is not used, or nothing when it is this user's (or shared on purpose).
std::optional<std::string> foreign_owner(const fs::path& dir, bool shared) {
  struct stat status;
  if (shared || ::stat(dir.c_str(), &status) != 0 || status.st_uid == ::geteuid()) return std::nullopt;
  return "belongs to " + user_name(status.st_uid) + ", not to " + user_name(::geteuid()) +
         ": a cache directory another user can write could hand this one any bytes. If it is shared on "
         "purpose, set LLGO_WASM_CACHE_SHARED=1 (or pass --shared-cache-dir; C API: \"shared_cache_dir\": true)";
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

}  // namespace

std::chrono::milliseconds parse_seconds(std::string_view text) {
  std::string copy(text);
  char* end = nullptr;
  double seconds = std::strtod(copy.c_str(), &end);
  if (copy.empty() || *end != '\0' || !(seconds > 0) || seconds > 3600) {
    throw DriverError("\"" + copy + "\" is not a number of seconds in (0, 3600]");
  }
  // Up, never to 0: curl reads a timeout of 0 as "its default" (300 s to connect).
  return std::chrono::milliseconds(std::max<long long>(1, static_cast<long long>(std::ceil(seconds * 1000))));
}

std::vector<std::string> read_header_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw DriverError(file.string() + ": cannot read the remote cache's header file");
  std::vector<std::string> headers;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    std::size_t colon = line.find(':');
    bool named = colon != std::string::npos && colon > 0 &&
                 line.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == colon;
    // Only the line number: the line is likely a secret.
    if (!named) throw DriverError(file.string() + ":" + std::to_string(number) + ": not a header line (Name: value)");
    headers.push_back(line);
  }
  if (in.bad()) throw DriverError(file.string() + ": read error");
  return headers;
}

PackageCacheConfig package_cache_config_from_environment(const std::optional<fs::path>& dir) {
  PackageCacheConfig config;
  config.dir = dir ? *dir : default_cache_dir();
  if (const char* size = environment("LLGO_WASM_CACHE_MAX_SIZE")) config.max_bytes = parse_size(size);
  if (const char* shared = environment("LLGO_WASM_CACHE_SHARED")) config.shared_dir = std::string(shared) != "0";
  if (const char* url = environment("LLGO_WASM_REMOTE_CACHE")) {
    check_remote_cache_url(url);
    config.remote_url = url;
  }
  if (const char* read_only = environment("LLGO_WASM_REMOTE_CACHE_READ_ONLY")) {
    config.remote_writes = std::string(read_only) == "0";
  }
  if (const char* timeout = environment("LLGO_WASM_REMOTE_CACHE_TIMEOUT")) {
    try {
      config.remote_timeout = parse_seconds(timeout);
    } catch (const DriverError& failure) {
      throw DriverError(std::string("LLGO_WASM_REMOTE_CACHE_TIMEOUT: ") + failure.what());
    }
  }
  if (const char* netrc = environment("LLGO_WASM_REMOTE_CACHE_NETRC")) config.remote_netrc = netrc;
  if (const char* headers = environment("LLGO_WASM_REMOTE_CACHE_HEADER_FILE")) {
    config.remote_headers = read_header_file(headers);
  }
  return config;
}

PackageCacheConfig package_cache_config_from_json(const nlohmann::json& request) {
  PackageCacheConfig config;
  auto text = [&](const char* name) -> std::optional<std::string> {
    auto found = request.find(name);
    if (found == request.end() || found->is_null()) return std::nullopt;
    if (!found->is_string()) throw DriverError(std::string("\"") + name + "\" must be a string");
    return found->get<std::string>();
  };
  auto flag = [&](const char* name) -> std::optional<bool> {
    auto found = request.find(name);
    if (found == request.end()) return std::nullopt;
    if (!found->is_boolean()) throw DriverError(std::string("\"") + name + "\" must be true or false");
    return found->get<bool>();
  };
  auto dir = text("cache_dir");
  if (!dir || dir->empty()) throw DriverError("the request needs \"cache_dir\" (the local cache directory)");
  config.dir = *dir;
  if (auto size = text("max_size")) config.max_bytes = parse_size(*size);
  if (auto shared = flag("shared_cache_dir")) config.shared_dir = *shared;
  if (auto url = text("remote"); url && !url->empty()) {
    check_remote_cache_url(*url);
    config.remote_url = *url;
  }
  if (auto read_only = flag("remote_read_only")) config.remote_writes = !*read_only;
  if (auto timeout = request.find("remote_timeout"); timeout != request.end()) {
    if (!timeout->is_number()) throw DriverError("\"remote_timeout\" must be a number of seconds");
    config.remote_timeout = parse_seconds(std::to_string(timeout->get<double>()));
  }
  if (auto netrc = text("remote_netrc")) config.remote_netrc = *netrc;
  if (auto headers = text("remote_header_file"); headers && !headers->empty()) {
    config.remote_headers = read_header_file(*headers);
  }
  return config;
}

nlohmann::json cache_stats_to_json(PackageCache& cache) {
  CacheStats stats = cache.local().stats();
  const PackageCacheConfig& config = cache.config();
  return {{"dir", config.dir.string()},
          {"entries", stats.entries},
          {"blobs", stats.blobs},
          {"temporaries", stats.temporaries},
          {"bytes", stats.bytes},
          {"max-bytes", config.max_bytes},
          {"remote", config.remote_url.empty() ? std::string() : display_url(config.remote_url)},
          {"remote-writes", !config.remote_url.empty() && config.remote_writes}};
}

const char* to_string(CacheSource source) { return source == CacheSource::local ? "local" : "remote"; }

PackageCache::PackageCache(PackageCacheConfig config, Warn warn)
    : config_(std::move(config)), warn_(std::move(warn)), local_(config_.dir, config_.max_bytes) {}

PackageCache::~PackageCache() = default;

PackageCacheCounts PackageCache::counts() const {
  PackageCacheCounts counts = counts_;
  if (remote_) counts.remote = remote_->counts();
  return counts;
}

void PackageCache::check_local_owner() const {
  if (auto problem = foreign_owner(config_.dir, config_.shared_dir)) {
    throw DriverError("local cache " + config_.dir.string() + " " + *problem);
  }
}

// Checked once, before the first use: the directory is this user's (or shared on purpose) and a
// file can be created in it. Anything else turns caching off with one warning.
bool PackageCache::usable_local() {
  if (!local_checked_) {
    local_checked_ = true;
    if (auto problem = foreign_owner(config_.dir, config_.shared_dir)) {
      local_failed(*problem);
    } else {
      try {
        detail::TemporaryFile probe(config_.dir / "tmp", "probe-");
      } catch (const CacheIoError& failure) {
        local_failed(std::string("is not writable: ") + failure.what());
      }
    }
  }
  return local_off_.empty();
}

void PackageCache::local_failed(const std::string& what) {
  if (!local_off_.empty()) return;
  local_off_ = what;
  counts_.local_disabled = true;
  warn_("local cache " + config_.dir.string() + " " + what + "; caching is off for this process");
}

RemoteCache* PackageCache::usable_remote() {
  if (config_.remote_url.empty() || counts_.remote_disabled) return nullptr;
  if (!remote_checked_) {
    remote_checked_ = true;
    std::error_code error;
    fs::path note = failure_note(config_.dir);
    auto when = fs::last_write_time(note, error);
    if (!error && fs::file_time_type::clock::now() - when < config_.remote_skip_after_failure) {
      std::ifstream in(note);
      std::string url, reason;
      std::getline(in, url);
      std::getline(in, reason);
      if (url == url_digest(config_.remote_url)) {
        counts_.remote_disabled = true;
        warn_("remote cache " + display_url(config_.remote_url) + " skipped: it failed moments ago (" + reason +
              "); using the local cache only");
        return nullptr;
      }
    }
    remote_ = std::make_unique<RemoteCache>(RemoteCacheOptions{config_.remote_url, config_.remote_timeout,
                                                               config_.remote_attempts, config_.remote_netrc,
                                                               config_.remote_headers});
  }
  return remote_.get();
}

void PackageCache::remote_failed(const std::string& what) {
  counts_.remote_disabled = true;
  warn_("remote cache " + display_url(config_.remote_url) + " unavailable, using the local cache only: " + what);
  try {
    std::string text = url_digest(config_.remote_url) + "\n" + what + "\n";
    detail::TemporaryFile note(config_.dir / "tmp", "note-");
    note.write(text.data(), text.size());
    note.publish(failure_note(config_.dir));
  } catch (const std::exception&) {
    // The note only saves other processes a timeout.
  }
}

// The remote entry, checked: it parses (bounds, layout), lists the expected outputs, and what it
// says of blobs already here is true. A bad one is a miss (with a warning when the server is to
// blame), never stored.
std::optional<CacheEntry> PackageCache::fetch_remote_entry(RemoteCache& remote, std::string_view key, std::string* why,
                                                           const std::vector<std::string>* expected) {
  std::optional<std::string> text = remote.get_entry(key);
  if (!text) {
    if (why) *why += "; not on the remote either";
    return std::nullopt;
  }
  CacheEntry entry;
  try {
    entry = parse_cache_entry(*text, key);
  } catch (const CacheEntryBoundError& failure) {
    throw RemoteCacheBoundError("GET " + display_url(remote.url()) + "/ac/" + std::string(key) + ": " + failure.what());
  } catch (const DriverError& failure) {
    warn_("remote cache: ignoring a bad entry: " + std::string(failure.what()));
    if (why) *why += "; the remote entry is bad";
    return std::nullopt;
  }
  if (expected) {
    try {
      check_expected_outputs(entry, *expected);
    } catch (const DriverError& failure) {
      if (why) *why += std::string("; on the remote, ") + failure.what();
      return std::nullopt;
    }
  }
  for (const auto& output : entry.outputs) {
    std::error_code error;
    std::uint64_t size = local_.has_blob(output.sha256) ? fs::file_size(local_.blob_path(output.sha256), error) : output.size;
    if (!error && size != output.size) {
      warn_("remote cache: ignoring a bad entry: cache entry " + std::string(key) + ": output " + output.name +
            " declares " + std::to_string(output.size) + " bytes, but its blob has " + std::to_string(size));
      if (why) *why += "; the remote entry is bad";
      return std::nullopt;
    }
    if (config_.max_bytes > 0 && output.size > config_.max_bytes) {
      if (why) *why += "; remote output " + output.name + " is larger than the local cache's bound";
      return std::nullopt;
    }
  }
  return entry;
}

std::optional<CacheEntry> PackageCache::fill_from_remote(std::string_view key, std::string* why,
                                                         const std::vector<std::string>* expected) {
  RemoteCache* remote = usable_remote();
  if (!remote) return std::nullopt;
  // Blobs this fill downloads: removed again unless the entry that names them is stored.
  std::vector<std::string> fetched;
  bool stored = false;
  struct Undo {
    std::function<void()> run;
    ~Undo() { run(); }
  } undo{[&] {
    if (!stored) {
      for (const auto& digest : fetched) local_.remove_blob(digest);
    }
  }};
  try {
    remote->begin_operation();
    std::optional<CacheEntry> entry = fetch_remote_entry(*remote, key, why, expected);
    if (!entry) return std::nullopt;
    std::uint64_t bytes = 0;
    for (const auto& output : entry->outputs) {
      if (!local_.has_blob(output.sha256)) bytes = saturating_add(bytes, output.size);
    }
    remote->allow(bytes);
    for (const auto& output : entry->outputs) {
      if (local_.has_blob(output.sha256)) continue;
      switch (remote->get_blob(output.sha256, output.size, local_)) {
        case RemoteCache::BlobFetch::stored:
          fetched.push_back(output.sha256);
          break;
        case RemoteCache::BlobFetch::missing:
          if (why) *why += "; remote blob " + output.sha256 + " of " + output.name + " is missing";
          return std::nullopt;
        case RemoteCache::BlobFetch::corrupted:
          warn_("remote cache: blob " + output.sha256 + " of " + output.name + " is corrupted on " +
                display_url(config_.remote_url) + " (its bytes hash differently, or are fewer than the entry says); ignored");
          if (why) *why += "; remote blob " + output.sha256 + " is corrupted";
          return std::nullopt;
      }
    }
    local_.write_entry(*entry);
    stored = true;
    return entry;
  } catch (const RemoteCacheError& failure) {
    remote_failed(failure.what());
    if (why) *why += "; remote unavailable";
  } catch (const CacheIoError& failure) {
    local_failed(std::string("failed: ") + failure.what());
    if (why) *why += "; the local cache failed";
  } catch (const fs::filesystem_error& failure) {
    local_failed(std::string("failed: ") + failure.what());
    if (why) *why += "; the local cache failed";
  }
  return std::nullopt;
}

std::optional<CacheHit> PackageCache::get(std::string_view key, const fs::path& destination, std::string* why,
                                          const std::vector<std::string>* expected) {
  check_cache_key(key);
  std::string reason;
  if (!usable_local()) {
    reason = "caching is off: the local cache " + local_off_;
  } else if (auto entry = local_.get(key, destination, &reason, expected)) {
    ++counts_.local_hits;
    return CacheHit{std::move(*entry), CacheSource::local};
  } else if (fill_from_remote(key, &reason, expected)) {
    if (auto entry = local_.get(key, destination, &reason, expected)) {
      ++counts_.remote_hits;
      return CacheHit{std::move(*entry), CacheSource::remote};
    }
  }
  ++counts_.misses;
  if (why) *why = reason;
  return std::nullopt;
}

std::optional<CacheSource> PackageCache::has(std::string_view key) {
  check_cache_key(key);
  if (!usable_local()) return std::nullopt;
  if (local_.has(key)) return CacheSource::local;
  RemoteCache* remote = usable_remote();
  if (!remote) return std::nullopt;
  try {
    remote->begin_operation();
    if (remote->has_entry(key)) return CacheSource::remote;
  } catch (const RemoteCacheError& failure) {
    remote_failed(failure.what());
  }
  return std::nullopt;
}

CacheEntry PackageCache::put(std::string_view key, const std::vector<std::pair<std::string, fs::path>>& outputs,
                             const nlohmann::json& metadata) {
  if (!usable_local()) return describe_outputs(key, outputs, metadata);
  CacheEntry entry;
  try {
    entry = local_.put(key, outputs, metadata);
  } catch (const CacheIoError& failure) {
    local_failed(std::string("failed: ") + failure.what());
    return describe_outputs(key, outputs, metadata);
  } catch (const fs::filesystem_error& failure) {
    local_failed(std::string("failed: ") + failure.what());
    return describe_outputs(key, outputs, metadata);
  }
  if (!config_.remote_writes) return entry;
  RemoteCache* remote = usable_remote();
  if (!remote) return entry;
  std::uint64_t bytes = 0;
  for (const auto& output : entry.outputs) {
    if (!local_.has_blob(output.sha256)) return entry;  // trimmed at once: the local bound is too small
    bytes = saturating_add(bytes, output.size);
  }
  try {
    remote->begin_operation(bytes);
    // Every blob is sent, even one the server has: a put follows a miss, which may have been a
    // blob corrupted on the server, and this is what repairs it.
    for (const auto& output : entry.outputs) remote->put_blob(output.sha256, local_.blob_path(output.sha256));
    remote->put_entry(key, serialize_cache_entry(entry));
  } catch (const RemoteCacheError& failure) {
    remote_failed(failure.what());
  }
  return entry;
}

}  // namespace llgo_wasm
