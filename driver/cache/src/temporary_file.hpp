// A file written under a unique temporary name and published by rename(2): the only way files
// enter the cache store or a `cache get` destination. Until publish() the file is invisible under
// its final name; a TemporaryFile destroyed unpublished removes its temporary. Failures of the
// file system (a full disk, an unwritable directory) are CacheIoError.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace llgo_wasm::detail {

// "<pid>-<random>-<counter>": unique among the processes of one machine, and it names the
// process that made it (output_staging.cpp sweeps what a killed process left).
std::string unique_suffix();

class TemporaryFile {
 public:
  // Creates <directory>/<prefix><unique> (mode 0644); the directory is created if missing.
  explicit TemporaryFile(const std::filesystem::path& directory, const std::string& prefix = ".tmp-");
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  void write(const void* data, std::size_t size);
  // Flushes to disk (fsync), closes and renames onto `final_path` (its directory is created).
  void publish(const std::filesystem::path& final_path);
  // Flushes and closes without publishing (before a later publish()).
  void close();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool published_ = false;
};

}  // namespace llgo_wasm::detail
