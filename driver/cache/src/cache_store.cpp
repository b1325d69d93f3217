// See cache_store.hpp.
#include "llgo_wasm/cache_store.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/sha256.hpp"
#include "output_staging.hpp"
#include "temporary_file.hpp"

namespace llgo_wasm {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kChunk = 1 << 20;

// An entry's text, never read past one byte more than an entry may have (parsing refuses that).
std::string read_entry_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::string text(kMaxCacheEntryBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
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

// Regular files directly in tmp/.
template <typename Visit>
void for_each_temporary(const fs::path& tmp, Visit&& visit) {
  std::error_code error;
  for (fs::directory_iterator file(tmp, error), end; !error && file != end; file.increment(error)) {
    std::error_code status;
    if (file->is_regular_file(status)) visit(file->path());
  }
}

// Feeds an output file to `consume` in chunks; DriverError (the caller's input) when it cannot be read.
template <typename Consume>
void read_output_file(const fs::path& path, Consume&& consume) {
  std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!in) throw DriverError(path.string() + ": cannot read the output file");
  std::vector<char> buffer(kChunk);
  std::size_t count;
  while ((count = std::fread(buffer.data(), 1, buffer.size(), in.get())) > 0) consume(buffer.data(), count);
  if (std::ferror(in.get())) throw DriverError(path.string() + ": read error");
}

// The names of a put's outputs, checked before any byte is hashed or stored.
void check_put_outputs(const std::vector<std::pair<std::string, fs::path>>& outputs) {
  std::vector<std::string_view> names;
  for (const auto& [name, path] : outputs) {
    check_output_name(name);
    names.push_back(name);
  }
  try {
    check_output_layout(names);
  } catch (const DriverError& failure) {
    throw DriverError(std::string("cache put: ") + failure.what());
  }
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
  // What is stored must read back: no entry a get could not write out, none past the bounds.
  parse_cache_entry(text, entry.key);
  detail::TemporaryFile file(root_ / "tmp", "entry-");
  file.write(text.data(), text.size());
  file.publish(entry_path(entry.key));
}

namespace {

// The entry a put of `outputs` makes, each output's digest and size from `record` (which reads the
// file once: into the store, or only through a hash), its outputs in name order.
template <typename Record>
CacheEntry entry_of_outputs(std::string_view key, const std::vector<std::pair<std::string, fs::path>>& outputs,
                            const nlohmann::json& metadata, Record&& record) {
  check_cache_key(key);
  if (!metadata.is_object()) throw DriverError("cache put: metadata must be a JSON object");
  check_put_outputs(outputs);
  CacheEntry entry;
  entry.key = key;
  entry.metadata = metadata;
  for (const auto& [name, path] : outputs) {
    auto [digest, size] = record(path);
    entry.outputs.push_back({name, std::move(digest), size});
  }
  std::sort(entry.outputs.begin(), entry.outputs.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return entry;
}

}  // namespace

CacheEntry CacheStore::put(std::string_view key, const std::vector<std::pair<std::string, fs::path>>& outputs,
                           const nlohmann::json& metadata) {
  CacheEntry entry = entry_of_outputs(key, outputs, metadata, [&](const fs::path& path) {
    std::unique_ptr<BlobWriter> blob = new_blob();
    read_output_file(path, [&](const char* data, std::size_t size) { blob->write(data, size); });
    std::uint64_t size = blob->size();
    return std::pair<std::string, std::uint64_t>{*blob->commit(), size};
  });
  write_entry(entry);
  if (max_bytes_ > 0 && stats().bytes > max_bytes_) trim(max_bytes_);
  return entry;
}

CacheEntry describe_outputs(std::string_view key, const std::vector<std::pair<std::string, fs::path>>& outputs,
                            const nlohmann::json& metadata) {
  return entry_of_outputs(key, outputs, metadata, [](const fs::path& path) {
    Sha256 digest;
    std::uint64_t size = 0;
    read_output_file(path, [&](const char* data, std::size_t count) {
      digest.update(data, count);
      size += count;
    });
    return std::pair<std::string, std::uint64_t>{digest.hex(), size};
  });
}

void check_expected_outputs(const CacheEntry& entry, const std::vector<std::string>& expected) {
  std::set<std::string> listed, wanted(expected.begin(), expected.end());
  for (const auto& output : entry.outputs) listed.insert(output.name);
  if (listed == wanted) return;
  auto names = [](const std::set<std::string>& set) {
    std::string text;
    for (const auto& name : set) text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? std::string("none") : text;
  };
  std::set<std::string> extra, absent;
  std::set_difference(listed.begin(), listed.end(), wanted.begin(), wanted.end(), std::inserter(extra, extra.end()));
  std::set_difference(wanted.begin(), wanted.end(), listed.begin(), listed.end(), std::inserter(absent, absent.end()));
  std::string why = "the entry's outputs are not the expected ones (";
  if (!extra.empty()) why += "unexpected: " + names(extra) + (absent.empty() ? "" : "; ");
  if (!absent.empty()) why += "missing: " + names(absent);
  throw DriverError(why + ")");
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
    return parse_cache_entry(read_entry_text(path), key);
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

std::optional<CacheEntry> CacheStore::get(std::string_view key, const fs::path& destination, std::string* why,
                                          const std::vector<std::string>* expected) {
  auto miss = [&](const std::string& reason) -> std::optional<CacheEntry> {
    if (why) *why = reason;
    return std::nullopt;
  };
  detail::sweep_abandoned_staging(destination);
  std::optional<CacheEntry> entry = read_entry(key, why);
  if (!entry) return std::nullopt;
  if (expected) {
    try {
      check_expected_outputs(*entry, *expected);
    } catch (const DriverError& failure) {
      return miss(failure.what());
    }
  }
  std::vector<char> buffer(kChunk);
  std::vector<std::string> names;
  try {
    detail::OutputStaging staging(destination);
    for (const auto& output : entry->outputs) {
      fs::path blob = blob_path(output.sha256);
      std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(blob.c_str(), "rb"), std::fclose);
      if (!in) {
        remove_entry(key);
        return miss("blob " + output.sha256 + " of " + output.name + " is missing");
      }
      detail::TemporaryFile& file = staging.add();
      Sha256 digest;
      std::uint64_t size = 0;
      std::size_t count;
      // Never more than the entry says: a blob that grew is wrong, however large it grew.
      while (size <= output.size && (count = std::fread(buffer.data(), 1, buffer.size(), in.get())) > 0) {
        digest.update(buffer.data(), count);
        file.write(buffer.data(), count);
        size += count;
      }
      if (std::ferror(in.get()) || digest.hex() != output.sha256) {
        remove_blob(output.sha256);
        remove_entry(key);
        return miss("blob " + output.sha256 + " of " + output.name +
                    " is corrupted (its contents hash differently; removed)");
      }
      if (size != output.size) {
        // The bytes are right (they hash to their name): the entry is what is wrong.
        remove_entry(key);
        return miss("the entry says output " + output.name + " has " + std::to_string(output.size) +
                    " bytes, but its blob has " + std::to_string(size) + " (entry removed)");
      }
      file.close();
      names.push_back(output.name);
      touch(blob);
    }
    staging.publish(names);
  } catch (const CacheIoError& failure) {
    return miss("cannot write the outputs under " + destination.string() + ": " + failure.what());
  } catch (const fs::filesystem_error& failure) {
    return miss("cannot write the outputs under " + destination.string() + ": " + failure.what());
  }
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
  for_each_temporary(root_ / "tmp", [&](const fs::path& path) {
    ++stats.temporaries;
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
  const auto now = fs::file_time_type::clock::now();
  // Temporaries of writers that died long ago go; younger ones are writes in progress and count.
  std::uint64_t temporaries = 0;
  for_each_temporary(root_ / "tmp", [&](const fs::path& path) {
    std::error_code error;
    if (now - fs::last_write_time(path, error) > std::chrono::hours(1) && !error && fs::remove(path, error)) return;
    temporaries += file_size_or_zero(path);
  });
  std::vector<Stored> entries;
  for_each_stored_file(root_ / "ac", [&](const fs::path& path) {
    std::error_code error;
    Stored stored{path, fs::last_write_time(path, error), file_size_or_zero(path), {}};
    try {
      for (const auto& output : parse_cache_entry(read_entry_text(path), path.filename().string()).outputs) {
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
  std::uint64_t total = temporaries;
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
  for (const auto& [digest, stored] : blobs) {
    if (kept_blobs.count(digest)) continue;
    std::error_code error;
    if (now - fs::last_write_time(stored.first, error) < grace && !error) {
      total += stored.second;
      continue;
    }
    if (fs::remove(stored.first, error)) ++result.removed_blobs;
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
