// See cache_store.hpp.
#include "llgo_wasm/cache_store.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/sha256.hpp"
#include "temporary_file.hpp"

namespace llgo_wasm {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kChunk = 1 << 20;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void touch(const fs::path& path) {
  std::error_code ignored;
  fs::last_write_time(path, fs::file_time_type::clock::now(), ignored);
}

// Regular files directly in the two-character fan-out folders of `dir` (ac/ or cas/).
template <typename Visit>
void for_each_stored_file(const fs::path& dir, Visit&& visit) {
  std::error_code error;
  for (fs::directory_iterator fan(dir, error), end; !error && fan != end; fan.increment(error)) {
    std::error_code inner;
    for (fs::directory_iterator file(fan->path(), inner), none; !inner && file != none; file.increment(inner)) {
      std::error_code status;
      if (file->is_regular_file(status)) visit(file->path());
    }
  }
}

std::uint64_t file_size_or_zero(const fs::path& path) {
  std::error_code error;
  std::uintmax_t size = fs::file_size(path, error);
  return error ? 0 : size;
}

}  // namespace

struct BlobWriter::State {
  detail::TemporaryFile file;
  Sha256 digest;
  explicit State(const fs::path& dir) : file(dir, "blob-") {}
};

BlobWriter::BlobWriter(const fs::path& temporary_dir, fs::path cas_dir)
    : state_(std::make_unique<State>(temporary_dir)), cas_dir_(std::move(cas_dir)) {}

BlobWriter::~BlobWriter() = default;

void BlobWriter::write(const void* data, std::size_t size) {
  state_->digest.update(data, size);
  state_->file.write(data, size);
  size_ += size;
}

std::optional<std::string> BlobWriter::commit(std::string_view expected) {
  std::string digest = state_->digest.hex();
  if (!expected.empty() && digest != expected) return std::nullopt;
  state_->file.publish(cas_dir_ / digest.substr(0, 2) / digest);
  return digest;
}

CacheStore::CacheStore(fs::path root, std::uint64_t max_bytes) : root_(std::move(root)), max_bytes_(max_bytes) {}

fs::path CacheStore::blob_path(std::string_view digest) const {
  return root_ / "cas" / std::string(digest.substr(0, 2)) / std::string(digest);
}

fs::path CacheStore::entry_path(std::string_view key) const {
  return root_ / "ac" / std::string(key.substr(0, 2)) / std::string(key);
}

bool CacheStore::has_blob(std::string_view digest) const {
  std::error_code error;
  return fs::is_regular_file(blob_path(digest), error);
}

std::unique_ptr<BlobWriter> CacheStore::new_blob() { return std::make_unique<BlobWriter>(root_ / "tmp", root_ / "cas"); }

void CacheStore::remove_blob(std::string_view digest) {
  std::error_code ignored;
  fs::remove(blob_path(digest), ignored);
}

void CacheStore::remove_entry(std::string_view key) {
  std::error_code ignored;
  fs::remove(entry_path(key), ignored);
}

void CacheStore::write_entry(const CacheEntry& entry) {
  check_cache_key(entry.key);
  std::string text = serialize_cache_entry(entry);
  detail::TemporaryFile file(root_ / "tmp", "entry-");
  file.write(text.data(), text.size());
  file.publish(entry_path(entry.key));
}

CacheEntry CacheStore::put(std::string_view key, const std::vector<std::pair<std::string, fs::path>>& outputs,
                           const nlohmann::json& metadata) {
  check_cache_key(key);
  if (!metadata.is_object()) throw DriverError("cache put: metadata must be a JSON object");
  CacheEntry entry;
  entry.key = key;
  entry.metadata = metadata;
  std::set<std::string> names;
  std::vector<char> buffer(kChunk);
  for (const auto& [name, path] : outputs) {
    check_output_name(name);
    if (!names.insert(name).second) throw DriverError("cache put: output name " + name + " given twice");
    std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!in) throw DriverError(path.string() + ": cannot read the output file");
    std::unique_ptr<BlobWriter> blob = new_blob();
    std::size_t count;
    while ((count = std::fread(buffer.data(), 1, buffer.size(), in.get())) > 0) blob->write(buffer.data(), count);
    if (std::ferror(in.get())) throw DriverError(path.string() + ": read error");
    std::uint64_t size = blob->size();
    entry.outputs.push_back({name, *blob->commit(), size});
  }
  std::sort(entry.outputs.begin(), entry.outputs.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  write_entry(entry);
  if (max_bytes_ > 0 && stats().bytes > max_bytes_) trim(max_bytes_);
  return entry;
}

std::optional<CacheEntry> CacheStore::read_entry(std::string_view key, std::string* why) {
  check_cache_key(key);
  fs::path path = entry_path(key);
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    if (why) *why = "no entry";
    return std::nullopt;
  }
  try {
    return parse_cache_entry(read_text(path), key);
  } catch (const DriverError& failure) {
    remove_entry(key);
    if (why) *why = std::string(failure.what()) + " (removed)";
    return std::nullopt;
  }
}

bool CacheStore::has(std::string_view key) {
  std::optional<CacheEntry> entry = read_entry(key);
  if (!entry) return false;
  for (const auto& output : entry->outputs) {
    std::error_code error;
    if (fs::file_size(blob_path(output.sha256), error) != output.size || error) return false;
  }
  return true;
}

std::optional<CacheEntry> CacheStore::get(std::string_view key, const fs::path& destination, std::string* why) {
  std::optional<CacheEntry> entry = read_entry(key, why);
  if (!entry) return std::nullopt;
  std::vector<std::unique_ptr<detail::TemporaryFile>> staged;
  std::vector<char> buffer(kChunk);
  for (const auto& output : entry->outputs) {
    fs::path blob = blob_path(output.sha256);
    std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(blob.c_str(), "rb"), std::fclose);
    if (!in) {
      if (why) *why = "blob " + output.sha256 + " of " + output.name + " is missing";
      remove_entry(key);
      return std::nullopt;
    }
    fs::path target = destination / output.name;
    auto file = std::make_unique<detail::TemporaryFile>(target.parent_path(), "." + target.filename().string() + ".tmp-");
    Sha256 digest;
    std::size_t count;
    while ((count = std::fread(buffer.data(), 1, buffer.size(), in.get())) > 0) {
      digest.update(buffer.data(), count);
      file->write(buffer.data(), count);
    }
    if (std::ferror(in.get()) || digest.hex() != output.sha256) {
      if (why) *why = "blob " + output.sha256 + " of " + output.name + " is corrupted (its contents hash differently; removed)";
      remove_blob(output.sha256);
      remove_entry(key);
      return std::nullopt;
    }
    file->close();
    staged.push_back(std::move(file));
    touch(blob);
  }
  for (std::size_t i = 0; i < staged.size(); ++i) staged[i]->publish(destination / entry->outputs[i].name);
  touch(entry_path(key));
  return entry;
}

CacheStats CacheStore::stats() const {
  CacheStats stats;
  for_each_stored_file(root_ / "ac", [&](const fs::path& path) {
    ++stats.entries;
    stats.bytes += file_size_or_zero(path);
  });
  for_each_stored_file(root_ / "cas", [&](const fs::path& path) {
    ++stats.blobs;
    stats.bytes += file_size_or_zero(path);
  });
  return stats;
}

TrimResult CacheStore::trim(std::uint64_t max_bytes, std::chrono::seconds grace) {
  struct Stored {
    fs::path path;
    fs::file_time_type used;
    std::uint64_t size;
    std::vector<std::string> blobs;
  };
  std::vector<Stored> entries;
  for_each_stored_file(root_ / "ac", [&](const fs::path& path) {
    std::error_code error;
    Stored stored{path, fs::last_write_time(path, error), file_size_or_zero(path), {}};
    try {
      for (const auto& output : parse_cache_entry(read_text(path), path.filename().string()).outputs) {
        stored.blobs.push_back(output.sha256);
      }
    } catch (const DriverError&) {
      stored.used = fs::file_time_type::min();  // unreadable: first to go
    }
    entries.push_back(std::move(stored));
  });
  std::map<std::string, std::pair<fs::path, std::uint64_t>> blobs;
  for_each_stored_file(root_ / "cas", [&](const fs::path& path) {
    blobs[path.filename().string()] = {path, file_size_or_zero(path)};
  });
  // Newest first: keep entries while they (with the blobs they add) fit.
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.used > b.used; });
  TrimResult result;
  std::set<std::string> kept_blobs;
  std::uint64_t total = 0;
  bool full = false;
  for (const auto& entry : entries) {
    std::uint64_t added = entry.size;
    for (const auto& digest : entry.blobs) {
      auto found = blobs.find(digest);
      if (!kept_blobs.count(digest) && found != blobs.end()) added += found->second.second;
    }
    bool readable = entry.used != fs::file_time_type::min();
    full = full || !readable || (max_bytes > 0 && total + added > max_bytes);
    if (full) {
      std::error_code ignored;
      if (fs::remove(entry.path, ignored)) ++result.removed_entries;
      continue;
    }
    total += added;
    kept_blobs.insert(entry.blobs.begin(), entry.blobs.end());
  }
  const auto now = fs::file_time_type::clock::now();
  for (const auto& [digest, stored] : blobs) {
    if (kept_blobs.count(digest)) continue;
    std::error_code error;
    if (now - fs::last_write_time(stored.first, error) < grace && !error) {
      total += stored.second;
      continue;
    }
    if (fs::remove(stored.first, error)) ++result.removed_blobs;
  }
  // Temporaries of writers that died long ago.
  std::error_code error;
  for (fs::directory_iterator file(root_ / "tmp", error), end; !error && file != end; file.increment(error)) {
    std::error_code inner;
    if (now - fs::last_write_time(file->path(), inner) > std::chrono::hours(1) && !inner) fs::remove(file->path(), inner);
  }
  result.bytes_after = total;
  return result;
}

fs::path default_cache_dir() {
  if (const char* dir = std::getenv("LLGO_WASM_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "llgo-wasm" / "build-cache";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "llgo-wasm" / "build-cache";
  throw DriverError("no cache directory: set LLGO_WASM_CACHE_DIR (or HOME) or pass --cache-dir DIR");
}

std::uint64_t parse_size(std::string_view text) {
  auto bad = [&]() -> std::uint64_t {
    throw DriverError("\"" + std::string(text) + "\" is not a size (bytes, or a number with K, M or G, e.g. 500M)");
  };
  if (text.empty()) return bad();
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (value > (UINT64_MAX - 9) / 10) return bad();
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i == 0) return bad();
  std::string_view unit = text.substr(i);
  std::uint64_t scale = unit.empty() ? 1
                        : (unit == "K" || unit == "k") ? (1ull << 10)
                        : (unit == "M" || unit == "m") ? (1ull << 20)
                        : (unit == "G" || unit == "g") ? (1ull << 30)
                                                       : 0;
  if (scale == 0 || value > UINT64_MAX / scale) return bad();
  return value * scale;
}

}  // namespace llgo_wasm
