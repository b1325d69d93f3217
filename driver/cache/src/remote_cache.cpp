// See remote_cache.hpp.
#include "llgo_wasm/remote_cache.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <climits>
#include <limits>
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

std::string seconds_text(std::chrono::milliseconds duration) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", static_cast<double>(duration.count()) / 1000.0);
  return text;
}

}  // namespace

// What a request sends and where its answer goes. `begin` runs before every attempt.
struct RemoteCache::Body {
  std::function<void()> begin = [] {};
  // The body of a 200 answer. Returns false to refuse the bytes (setting `refusal`), which ends
  // the transfer.
  std::function<bool(const char*, std::size_t)> receive = [](const char*, std::size_t) { return true; };
  std::string refusal;  // why the answer was refused: a bound, not a transport failure
  // The most bytes a 200 answer may have (-1: no bound). Curl is told the larger of it and
  // kMaxErrorPageBytes, and refuses a larger Content-Length before any byte of the body arrives.
  curl_off_t max_bytes = -1;
  CURL* curl = nullptr;             // of the current attempt, for the status in on_receive
  std::uint64_t error_page_bytes = 0;  // of the current attempt's non-200 answer, discarded
  // For PUT: the bytes come from `text` or from `file`.
  const std::string* text = nullptr;
  const std::filesystem::path* file = nullptr;
  std::size_t text_offset = 0;  // of the current attempt
};

namespace {

// The body of an answer other than 200 (a 404 page, a 500 page) is read and dropped, up to this.
constexpr std::uint64_t kMaxErrorPageBytes = 64 << 10;

}  // namespace

std::size_t RemoteCache::on_receive(char* data, std::size_t size, std::size_t count, void* user) {
  auto* body = static_cast<Body*>(user);
  long status = 0;
  curl_easy_getinfo(body->curl, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    body->error_page_bytes += size * count;
    if (body->error_page_bytes <= kMaxErrorPageBytes) return size * count;
    body->refusal = "an answer " + std::to_string(status) + " of more than " + std::to_string(kMaxErrorPageBytes) + " bytes";
    return 0;
  }
  return body->receive(data, size * count) ? size * count : 0;
}

void check_remote_cache_url(std::string_view url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    throw DriverError("remote cache \"" + display_url(url) +
                      "\": not an http:// or https:// URL (e.g. http://cache.example:8080/llgo)");
  }
}

std::string display_url(std::string_view url) {
  std::size_t scheme = url.find("://");
  std::size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
  std::size_t end = url.find_first_of("/?#", start);
  std::string_view authority = url.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, start)) + "***" + std::string(url.substr(start + at));
}

RemoteCache::RemoteCache(RemoteCacheOptions options) : options_(std::move(options)) {
  check_remote_cache_url(options_.url);
  while (!options_.url.empty() && options_.url.back() == '/') options_.url.pop_back();
  if (options_.attempts < 1) options_.attempts = 1;
  if (options_.timeout < std::chrono::milliseconds(1)) options_.timeout = std::chrono::milliseconds(1);
  global_init();
  curl_ = curl_easy_init();
  if (!curl_) throw DriverError("libcurl could not start a session");
  curl_slist* headers = nullptr;
  for (const auto& line : options_.headers) headers = curl_slist_append(headers, line.c_str());
  headers_ = headers;
}

RemoteCache::~RemoteCache() {
  curl_easy_cleanup(static_cast<CURL*>(curl_));
  curl_slist_free_all(static_cast<curl_slist*>(headers_));
}

void RemoteCache::begin_operation(std::uint64_t bytes) {
  budget_ = options_.timeout * options_.attempts;
  deadline_ = std::chrono::steady_clock::now() + budget_;
  allow(bytes);
}

void RemoteCache::allow(std::uint64_t bytes) {
  if (!deadline_) return;
  // At most a day: an entry may declare any size, and the clock must not overflow.
  constexpr std::uint64_t kDay = 24 * 3600 * 1000;
  auto extra = std::chrono::milliseconds(std::min(kDay, bytes / (kMinimumTransferRate / 1000)));
  budget_ += extra;
  *deadline_ += extra;
}

std::chrono::milliseconds RemoteCache::remaining() const {
  if (!deadline_) return std::chrono::milliseconds::max();
  return std::chrono::duration_cast<std::chrono::milliseconds>(*deadline_ - std::chrono::steady_clock::now());
}

long RemoteCache::attempt(const char* method, const std::string& url, Body& body, std::string& failure) {
  const std::string shown = std::string(method) + " " + display_url(url);
  CURL* curl = static_cast<CURL*>(curl_);
  curl_easy_reset(curl);
  char error_text[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  // The operation's deadline bounds the whole attempt; within it, the connect and a stall get
  // `timeout` each (a large transfer that keeps moving is not cut off before the deadline).
  const long timeout = static_cast<long>(options_.timeout.count());
  const long left = static_cast<long>(std::clamp<std::chrono::milliseconds::rep>(remaining().count(), 1, LONG_MAX));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeout, left));
  if (deadline_) curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, left);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, std::max<long>(1, (timeout + 999) / 1000));
  // Credentials: from the URL, else from a netrc file (never from anything we print).
  curl_easy_setopt(curl, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_OPTIONAL));
  if (!options_.netrc_file.empty()) curl_easy_setopt(curl, CURLOPT_NETRC_FILE, options_.netrc_file.c_str());
  if (headers_) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, static_cast<curl_slist*>(headers_));
  // An announced size past every bound ends the transfer before its body; the exact bound of a
  // 200 answer is on_receive's.
  if (body.max_bytes >= 0) {
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE,
                     std::max<curl_off_t>(body.max_bytes, static_cast<curl_off_t>(kMaxErrorPageBytes)));
  }
  body.curl = curl;
  body.error_page_bytes = 0;
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_receive);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
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
  body.refusal.clear();
  body.begin();
  CURLcode result = curl_easy_perform(curl);
  ++counts_.requests;
  curl_off_t downloaded = 0, uploaded = 0;
  curl_easy_getinfo(curl, CURLINFO_SIZE_DOWNLOAD_T, &downloaded);
  curl_easy_getinfo(curl, CURLINFO_SIZE_UPLOAD_T, &uploaded);
  counts_.bytes_downloaded += static_cast<std::uint64_t>(downloaded);
  counts_.bytes_uploaded += static_cast<std::uint64_t>(uploaded);
  if (result == CURLE_FILESIZE_EXCEEDED && body.refusal.empty()) {
    body.refusal = "the server announced more than the " + std::to_string(body.max_bytes) + " bytes it may send";
  }
  if (result != CURLE_OK) {
    failure = shown + ": " + (error_text[0] ? error_text : curl_easy_strerror(result));
    return -1;
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 500) failure = shown + ": the server answered " + std::to_string(status);
  return status;
}

long RemoteCache::request(const char* method, const std::string& path, Body& body) {
  std::string url = options_.url + path;
  std::string failure;
  auto past_deadline = [&] {
    return RemoteCacheBoundError(std::string(method) + " " + display_url(url) + ": no complete answer within " +
                                 seconds_text(budget_) + ", the operation's deadline (" +
                                 std::to_string(options_.attempts) + " x --remote-timeout " +
                                 seconds_text(options_.timeout) + ", plus its bytes at 1 MiB/s)");
  };
  for (int i = 0; i < options_.attempts; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::min(std::chrono::milliseconds(100 * i), remaining()));
    if (remaining().count() <= 0) throw past_deadline();
    long status = attempt(method, url, body, failure);
    if (!body.refusal.empty()) throw RemoteCacheBoundError(std::string(method) + " " + display_url(url) + ": " + body.refusal);
    if (status > 0 && status < 500) return status;
    if (remaining().count() <= 0) throw past_deadline();
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
  body.max_bytes = kMaxCacheEntryBytes;
  body.begin = [&] { text.clear(); };
  body.receive = [&](const char* data, std::size_t size) {
    if (text.size() + size > kMaxCacheEntryBytes) {
      body.refusal = "an entry of more than " + std::to_string(kMaxCacheEntryBytes) + " bytes (the most an entry may have)";
      return false;
    }
    text.append(data, size);
    return true;
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

RemoteCache::BlobFetch RemoteCache::get_blob(std::string_view digest, std::uint64_t size, CacheStore& store) {
  std::unique_ptr<BlobWriter> blob;
  Body body;
  body.max_bytes = static_cast<curl_off_t>(std::min<std::uint64_t>(size, std::numeric_limits<curl_off_t>::max()));
  body.begin = [&] { blob = store.new_blob(); };
  body.receive = [&](const char* data, std::size_t count) {
    // Checked before the bytes reach the disk: the entry's word is all a blob may take there.
    if (count > size - blob->size()) {
      body.refusal = "more bytes than the " + std::to_string(size) + " the entry declares for this blob";
      return false;
    }
    blob->write(data, count);
    return true;
  };
  std::string path = "/cas/" + std::string(digest);
  long status = request("GET", path, body);
  if (status == 404) return BlobFetch::missing;
  if (status != 200) unexpected("GET", path, status);
  if (blob->size() != size) return BlobFetch::corrupted;
  return blob->commit(digest) ? BlobFetch::stored : BlobFetch::corrupted;
}

void RemoteCache::put_blob(std::string_view digest, const std::filesystem::path& file) {
  Body body;
  body.file = &file;
  put("/cas/" + std::string(digest), body);
}

}  // namespace llgo_wasm
