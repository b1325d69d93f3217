// See temporary_file.hpp.
#include "temporary_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>

#include "llgo_wasm/cache_store.hpp"

namespace llgo_wasm::detail {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path) {
  throw CacheIoError(path.string() + ": " + what + ": " + std::strerror(errno));
}

void make_directories(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) throw CacheIoError(directory.string() + ": cannot create the directory: " + error.message());
}

}  // namespace

std::string unique_suffix() {
  static std::atomic<unsigned> counter{0};
  static const unsigned long long seed = std::random_device{}();
  return std::to_string(::getpid()) + "-" + std::to_string(seed) + "-" + std::to_string(counter++);
}

TemporaryFile::TemporaryFile(const std::filesystem::path& directory, const std::string& prefix) {
  make_directories(directory);
  path_ = directory / (prefix + unique_suffix());
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create a temporary file", path_);
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!published_) ::unlink(path_.c_str());
}

void TemporaryFile::write(const void* data, std::size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t written = ::write(fd_, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail("write failed", path_);
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
}

void TemporaryFile::close() {
  if (fd_ < 0) return;
  int fd = fd_;
  fd_ = -1;
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("fsync failed", path_);
  }
  if (::close(fd) != 0) fail("close failed", path_);
}

void TemporaryFile::publish(const std::filesystem::path& final_path) {
  close();
  if (final_path.has_parent_path()) make_directories(final_path.parent_path());
  if (::rename(path_.c_str(), final_path.c_str()) != 0) fail("cannot rename onto " + final_path.string(), path_);
  published_ = true;
}

}  // namespace llgo_wasm::detail
