// See output_staging.hpp.
#include "output_staging.hpp"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "llgo_wasm/cache_store.hpp"

namespace llgo_wasm::detail {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStagingPrefix = ".llgo-wasm-get-";

// What exists at `path` without following a final symbolic link.
fs::file_status status_of(const fs::path& path) {
  std::error_code ignored;
  return fs::symlink_status(path, ignored);
}

// The process a staging directory's name says made it: ".llgo-wasm-get-<pid>-...".
bool maker_is_gone(std::string_view name) {
  name.remove_prefix(kStagingPrefix.size());
  char* end = nullptr;
  std::string digits(name.substr(0, name.find('-')));
  long pid = std::strtol(digits.c_str(), &end, 10);
  if (digits.empty() || *end != '\0' || pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

OutputStaging::OutputStaging(fs::path destination) : destination_(std::move(destination)) {
  // Each missing ancestor is created (and remembered) one at a time, so a failed get can remove
  // exactly what it made.
  std::vector<fs::path> missing;
  for (fs::path at = destination_; !at.empty() && !fs::exists(status_of(at)); at = at.parent_path()) {
    missing.push_back(at);
    if (at == at.parent_path()) break;
  }
  try {
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) create_directory(*it);
    staging_ = destination_ / (std::string(kStagingPrefix) + unique_suffix());
    create_directory(staging_);
  } catch (...) {
    remove_created();  // no destructor runs for a constructor that throws
    throw;
  }
}

OutputStaging::~OutputStaging() {
  files_.clear();  // unlinks what was not published
  if (!published_) {
    remove_created();
    return;
  }
  std::error_code ignored;
  fs::remove(staging_, ignored);  // empty once everything is published
}

void OutputStaging::remove_created() {
  std::error_code ignored;
  if (!staging_.empty()) fs::remove_all(staging_, ignored);
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) fs::remove(*it, ignored);  // only if empty
}

void OutputStaging::create_directory(const fs::path& directory) {
  std::error_code error;
  if (fs::create_directory(directory, error)) {
    created_.push_back(directory);
    return;
  }
  if (error || !fs::is_directory(directory)) {
    throw CacheIoError(directory.string() + ": cannot create the directory: " +
                       (error ? error.message() : std::string("a file is in the way")));
  }
}

TemporaryFile& OutputStaging::add() {
  files_.push_back(std::make_unique<TemporaryFile>(staging_, std::to_string(files_.size()) + "-"));
  return *files_.back();
}

void OutputStaging::publish(const std::vector<std::string>& names) {
  // Everything that can be checked before the first rename is: a get publishes all or nothing
  // unless the destination changes under it. Names are checked output names (cache_entry.hpp):
  // relative, no "." or ".." parts.
  for (const auto& name : names) {
    fs::path at = destination_;
    fs::path relative(name);
    for (auto part = relative.begin(); part != relative.end(); ++part) {
      at /= *part;
      bool last = std::next(part) == relative.end();
      std::error_code ignored;
      fs::file_status status = last ? status_of(at) : fs::status(at, ignored);  // a link to a directory is fine
      if (last && fs::is_directory(status)) throw CacheIoError(at.string() + ": a directory is in the way of output " + name);
      if (!last && fs::exists(status) && !fs::is_directory(status)) {
        throw CacheIoError(at.string() + ": a file is in the way of output " + name);
      }
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    fs::path at = destination_;
    fs::path parent = fs::path(names[i]).parent_path();
    for (const auto& part : parent) {
      at /= part;
      if (!fs::exists(status_of(at))) create_directory(at);
    }
    files_[i]->publish(destination_ / names[i]);
  }
  published_ = true;
}

void sweep_abandoned_staging(const fs::path& destination) {
  std::error_code error;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(destination, error), end; !error && it != end; it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.rfind(kStagingPrefix, 0) != 0) continue;
    std::error_code inner;
    auto when = fs::last_write_time(it->path(), inner);
    if (maker_is_gone(name) || (!inner && now - when > std::chrono::hours(1))) fs::remove_all(it->path(), inner);
  }
}

}  // namespace llgo_wasm::detail
