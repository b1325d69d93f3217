// Where `cache get` writes its outputs. Every output is staged in one hidden directory inside
// the destination, <dest>/.llgo-wasm-get-<pid>-<unique>/, and renamed into place only once all
// are verified; a get that fails for any reason removes the staging directory and every
// directory it created (the destination itself included), so a miss leaves the destination as
// it was. One directory per get also makes what a killed get leaves easy to find:
// sweep_abandoned_staging() removes it on the next get into the same destination.
//
// Limits: the final renames are one per output, so a destination changed by someone else during
// them can end up with some outputs published (each complete and verified) and the get a miss.
// The destination must be on one file system (a mount point under it fails the rename: a miss).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "temporary_file.hpp"

namespace llgo_wasm::detail {

class OutputStaging {
 public:
  // Creates the destination (if missing) and the staging directory; CacheIoError on failure.
  explicit OutputStaging(std::filesystem::path destination);
  ~OutputStaging();
  OutputStaging(const OutputStaging&) = delete;
  OutputStaging& operator=(const OutputStaging&) = delete;

  // A new staged file, to be published as the `index`-th name given to publish().
  TemporaryFile& add();
  // Renames the staged files onto destination/names[i], after checking that each can go there
  // (no existing directory in its place, no file where a directory must be). CacheIoError names
  // the output that cannot be written.
  void publish(const std::vector<std::string>& names);

 private:
  void create_directory(const std::filesystem::path& directory);
  void remove_created();  // the staging directory and the directories this staging created

  std::filesystem::path destination_;
  std::filesystem::path staging_;
  std::vector<std::unique_ptr<TemporaryFile>> files_;
  std::vector<std::filesystem::path> created_;  // in creation order
  bool published_ = false;
};

// Removes staging directories in `destination` left by a get that died: its process is gone,
// or it is older than an hour (a process of another machine sharing the directory).
void sweep_abandoned_staging(const std::filesystem::path& destination);

}  // namespace llgo_wasm::detail
