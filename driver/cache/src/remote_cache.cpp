// See remote_cache.hpp.
#include "llgo_wasm/remote_cache.hpp"

#include <curl/curl.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm {
namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

// What a request sends and where its answer goes. `begin` runs before every attempt.
struct RemoteCache::Body {
  std::function<void()> begin = [] {};
  std::function<bool(const char*, std::size_t)> receive = [](const char*, std::size_t) { return true; };
  // For PUT: the bytes come from `text` or from `file`.
  const std::string* text = nullptr;
  const std::filesystem::path* file = nullptr;
  std::size_t text_offset = 0;  // of the current attempt
};

namespace {

std::size_t on_receive(char* data, std::size_t size, std::size_t count, void* user) {
  auto* receive = static_cast<std::function<bool(const char*, std::size_t)>*>(user);
  return (*receive)(data, size * count) ? size * count : 0;
}

}  // namespace

void check_remote_cache_url(std::string_view url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    throw DriverError("remote cache \"" + std::string(url) +
                      "\": not an http:// or https:// URL (e.g. http://cache.example:8080/llgo)");
  }
}

RemoteCache::RemoteCache(RemoteCacheOptions options) : options_(std::move(options)) {
  check_remote_cache_url(options_.url);
  while (!options_.url.empty() && options_.url.back() == '/') options_.url.pop_back();
  if (options_.attempts < 1) options_.attempts = 1;
  global_init();
  curl_ = curl_easy_init();
  if (!curl_) throw DriverError("libcurl could not start a session");
}

RemoteCache::~RemoteCache() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

long RemoteCache::attempt(const char* method, const std::string& url, Body& body, std::string& failure) {
  CURL* curl = static_cast<CURL*>(curl_);
  curl_easy_reset(curl);
  char error_text[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.timeout.count()));
  // A stall, not a slow large transfer, is what the timeout bounds.
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, std::max<long>(1, static_cast<long>((options_.timeout.count() + 999) / 1000)));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_receive);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body.receive);
  std::unique_ptr<FILE, int (*)(FILE*)> upload(nullptr, std::fclose);
  std::string method_name = method;
  if (method_name == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (method_name == "PUT") {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    if (body.file) {
      upload.reset(std::fopen(body.file->c_str(), "rb"));
      if (!upload) throw DriverError(body.file->string() + ": cannot read the file to upload");
      std::error_code error;
      curl_easy_setopt(curl, CURLOPT_READDATA, upload.get());
      curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(std::filesystem::file_size(*body.file, error)));
    } else {
      body.text_offset = 0;
      curl_easy_setopt(curl, CURLOPT_READFUNCTION, +[](char* buffer, std::size_t size, std::size_t count, void* user) {
        auto* state = static_cast<Body*>(user);
        std::size_t left = state->text->size() - state->text_offset;
        std::size_t n = std::min(left, size * count);
        std::copy_n(state->text->data() + state->text_offset, n, buffer);
        state->text_offset += n;
        return n;
      });
      curl_easy_setopt(curl, CURLOPT_READDATA, &body);
      curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(body.text->size()));
    }
  }
  body.begin();
  CURLcode result = curl_easy_perform(curl);
  ++counts_.requests;
  curl_off_t downloaded = 0, uploaded = 0;
  curl_easy_getinfo(curl, CURLINFO_SIZE_DOWNLOAD_T, &downloaded);
  curl_easy_getinfo(curl, CURLINFO_SIZE_UPLOAD_T, &uploaded);
  counts_.bytes_downloaded += static_cast<std::uint64_t>(downloaded);
  counts_.bytes_uploaded += static_cast<std::uint64_t>(uploaded);
  if (result != CURLE_OK) {
    failure = std::string(method) + " " + url + ": " + (error_text[0] ? error_text : curl_easy_strerror(result));
    return -1;
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 500) failure = std::string(method) + " " + url + ": the server answered " + std::to_string(status);
  return status;
}

long RemoteCache::request(const char* method, const std::string& path, Body& body) {
  std::string url = options_.url + path;
  std::string failure;
  for (int i = 0; i < options_.attempts; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100 * i));
    long status = attempt(method, url, body, failure);
    if (status > 0 && status < 500) return status;
  }
  throw RemoteCacheError(failure + " (after " + std::to_string(options_.attempts) + " attempts)");
}

namespace {

[[noreturn]] void unexpected(const char* method, const std::string& what, long status) {
  throw RemoteCacheError(std::string(method) + " " + what + ": unexpected HTTP status " + std::to_string(status));
}

}  // namespace

std::optional<std::string> RemoteCache::get_entry(std::string_view key) {
  std::string text;
  Body body;
  body.begin = [&] { text.clear(); };
  body.receive = [&](const char* data, std::size_t size) {
    text.append(data, size);
    return text.size() < (16u << 20);  // an entry is small; refuse a runaway answer
  };
  std::string path = "/ac/" + std::string(key);
  long status = request("GET", path, body);
  if (status == 404) return std::nullopt;
  if (status != 200) unexpected("GET", path, status);
  return text;
}

bool RemoteCache::has_entry(std::string_view key) {
  Body body;
  std::string path = "/ac/" + std::string(key);
  long status = request("HEAD", path, body);
  if (status != 200 && status != 404) unexpected("HEAD", path, status);
  return status == 200;
}

void RemoteCache::put(const std::string& path, Body& body) {
  long status = request("PUT", path, body);
  if (status < 200 || status >= 300) unexpected("PUT", path, status);
}

void RemoteCache::put_entry(std::string_view key, const std::string& text) {
  Body body;
  body.text = &text;
  put("/ac/" + std::string(key), body);
}

RemoteCache::BlobFetch RemoteCache::get_blob(std::string_view digest, CacheStore& store) {
  std::unique_ptr<BlobWriter> blob;
  Body body;
  body.begin = [&] { blob = store.new_blob(); };
  body.receive = [&](const char* data, std::size_t size) {
    blob->write(data, size);
    return true;
  };
  std::string path = "/cas/" + std::string(digest);
  long status = request("GET", path, body);
  if (status == 404) return BlobFetch::missing;
  if (status != 200) unexpected("GET", path, status);
  return blob->commit(digest) ? BlobFetch::stored : BlobFetch::corrupted;
}

void RemoteCache::put_blob(std::string_view digest, const std::filesystem::path& file) {
  Body body;
  body.file = &file;
  put("/cas/" + std::string(digest), body);
}

}  // namespace llgo_wasm
