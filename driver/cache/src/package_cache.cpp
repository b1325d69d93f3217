// See package_cache.hpp.
#include "llgo_wasm/package_cache.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "llgo_wasm/error.hpp"
#include "temporary_file.hpp"

namespace llgo_wasm {
namespace fs = std::filesystem;

namespace {

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// The note a failed remote leaves: "<url>\n<reason>\n", its mtime saying when.
fs::path failure_note(const fs::path& dir) { return dir / "remote-unavailable"; }

}  // namespace

std::chrono::milliseconds parse_seconds(std::string_view text) {
  std::string copy(text);
  char* end = nullptr;
  double seconds = std::strtod(copy.c_str(), &end);
  if (copy.empty() || *end != '\0' || !(seconds > 0) || seconds > 3600) {
    throw DriverError("\"" + copy + "\" is not a number of seconds in (0, 3600]");
  }
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

PackageCacheConfig package_cache_config_from_environment(const std::optional<fs::path>& dir) {
  PackageCacheConfig config;
  config.dir = dir ? *dir : default_cache_dir();
  if (const char* size = environment("LLGO_WASM_CACHE_MAX_SIZE")) config.max_bytes = parse_size(size);
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
  auto dir = text("cache_dir");
  if (!dir || dir->empty()) throw DriverError("the request needs \"cache_dir\" (the local cache directory)");
  config.dir = *dir;
  if (auto size = text("max_size")) config.max_bytes = parse_size(*size);
  if (auto url = text("remote"); url && !url->empty()) {
    check_remote_cache_url(*url);
    config.remote_url = *url;
  }
  if (auto read_only = request.find("remote_read_only"); read_only != request.end()) {
    if (!read_only->is_boolean()) throw DriverError("\"remote_read_only\" must be true or false");
    config.remote_writes = !read_only->get<bool>();
  }
  if (auto timeout = request.find("remote_timeout"); timeout != request.end()) {
    if (!timeout->is_number()) throw DriverError("\"remote_timeout\" must be a number of seconds");
    config.remote_timeout = parse_seconds(std::to_string(timeout->get<double>()));
  }
  return config;
}

nlohmann::json cache_stats_to_json(PackageCache& cache) {
  CacheStats stats = cache.local().stats();
  const PackageCacheConfig& config = cache.config();
  return {{"dir", config.dir.string()}, {"entries", stats.entries},        {"blobs", stats.blobs},
          {"bytes", stats.bytes},       {"max-bytes", config.max_bytes}, {"remote", config.remote_url},
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
      if (url == config_.remote_url) {
        counts_.remote_disabled = true;
        warn_("remote cache " + config_.remote_url + " skipped: it failed moments ago (" + reason +
              "); using the local cache only");
        return nullptr;
      }
    }
    remote_ = std::make_unique<RemoteCache>(
        RemoteCacheOptions{config_.remote_url, config_.remote_timeout, config_.remote_attempts});
  }
  return remote_.get();
}

void PackageCache::remote_failed(const std::string& what) {
  counts_.remote_disabled = true;
  warn_("remote cache " + config_.remote_url + " unavailable, using the local cache only: " + what);
  try {
    std::string text = config_.remote_url + "\n" + what + "\n";
    detail::TemporaryFile note(config_.dir / "tmp", "note-");
    note.write(text.data(), text.size());
    note.publish(failure_note(config_.dir));
  } catch (const std::exception&) {
    // The note only saves other processes a timeout.
  }
}

std::optional<CacheEntry> PackageCache::fill_from_remote(std::string_view key, std::string* why) {
  RemoteCache* remote = usable_remote();
  if (!remote) return std::nullopt;
  try {
    std::optional<std::string> text = remote->get_entry(key);
    if (!text) {
      if (why) *why += "; not on the remote either";
      return std::nullopt;
    }
    CacheEntry entry;
    try {
      entry = parse_cache_entry(*text, key);
    } catch (const DriverError& failure) {
      warn_("remote cache: ignoring a bad entry: " + std::string(failure.what()));
      if (why) *why += "; the remote entry is bad";
      return std::nullopt;
    }
    for (const auto& output : entry.outputs) {
      if (local_.has_blob(output.sha256)) continue;
      switch (remote->get_blob(output.sha256, local_)) {
        case RemoteCache::BlobFetch::stored:
          break;
        case RemoteCache::BlobFetch::missing:
          if (why) *why += "; remote blob " + output.sha256 + " of " + output.name + " is missing";
          return std::nullopt;
        case RemoteCache::BlobFetch::corrupted:
          warn_("remote cache: blob " + output.sha256 + " of " + output.name + " is corrupted on " +
                config_.remote_url + " (its bytes hash differently); ignored");
          if (why) *why += "; remote blob " + output.sha256 + " is corrupted";
          return std::nullopt;
      }
    }
    local_.write_entry(entry);
    return entry;
  } catch (const RemoteCacheError& failure) {
    remote_failed(failure.what());
    if (why) *why += "; remote unavailable";
    return std::nullopt;
  }
}

std::optional<CacheHit> PackageCache::get(std::string_view key, const fs::path& destination, std::string* why) {
  std::string reason;
  if (auto entry = local_.get(key, destination, &reason)) {
    ++counts_.local_hits;
    return CacheHit{std::move(*entry), CacheSource::local};
  }
  if (fill_from_remote(key, &reason)) {
    if (auto entry = local_.get(key, destination, &reason)) {
      ++counts_.remote_hits;
      return CacheHit{std::move(*entry), CacheSource::remote};
    }
  }
  ++counts_.misses;
  if (why) *why = reason;
  return std::nullopt;
}

std::optional<CacheSource> PackageCache::has(std::string_view key) {
  if (local_.has(key)) return CacheSource::local;
  RemoteCache* remote = usable_remote();
  if (!remote) return std::nullopt;
  try {
    if (remote->has_entry(key)) return CacheSource::remote;
  } catch (const RemoteCacheError& failure) {
    remote_failed(failure.what());
  }
  return std::nullopt;
}

CacheEntry PackageCache::put(std::string_view key, const std::vector<std::pair<std::string, fs::path>>& outputs,
                             const nlohmann::json& metadata) {
  CacheEntry entry = local_.put(key, outputs, metadata);
  if (!config_.remote_writes) return entry;
  RemoteCache* remote = usable_remote();
  if (!remote) return entry;
  for (const auto& output : entry.outputs) {
    if (!local_.has_blob(output.sha256)) return entry;  // trimmed at once: the local bound is too small
  }
  try {
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
