// The layered cache without a server (the nginx-backed checks are in remote_cache_test.py):
// an unreachable remote degrades to local-only with one warning, later processes skip it, and the
// C API carries the same operations with warnings in the result.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../driver/test_support.hpp"
#include "llgo_wasm.h"
#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/package_cache.hpp"

namespace {

using namespace llgo_wasm;
using llgo_wasm::testing::fails_with;
using llgo_wasm::testing::TemporaryDirectory;
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kPackageKey = sha256_hex("a package build");

// Port 1 on loopback: nothing listens, the connection is refused at once.
PackageCacheConfig unreachable_remote(const TemporaryDirectory& dir) {
  PackageCacheConfig config;
  config.dir = dir.path() / "cache";
  config.remote_url = "http://127.0.0.1:1/llgo";
  config.remote_timeout = std::chrono::milliseconds(2000);
  return config;
}

TEST(PackageCache, AnUnreachableRemoteWarnsOnceAndTheBuildGoesOnLocally) {
  TemporaryDirectory dir("package-cache");
  std::vector<std::string> warnings;
  PackageCache cache(unreachable_remote(dir), [&](const std::string& warning) { warnings.push_back(warning); });
  std::string why;
  // One attempt, then the remote is off for the process (counts below): what that costs in
  // seconds is the machine's and not asserted.
  EXPECT_FALSE(cache.get(kPackageKey, dir.path() / "out", &why));
  cache.put(kPackageKey, {{"lib.a", dir.write("lib.a", "archive")}}, json::object());
  ASSERT_TRUE(cache.get(kPackageKey, dir.path() / "out", &why)) << why;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("unavailable, using the local cache only"), std::string::npos) << warnings[0];
  EXPECT_TRUE(cache.counts().remote_disabled);
  EXPECT_EQ(cache.counts().local_hits, 1u);
  EXPECT_EQ(cache.counts().misses, 1u);

  // The next process with the same local cache skips the remote instead of trying again.
  std::vector<std::string> later;
  PackageCache next(unreachable_remote(dir), [&](const std::string& warning) { later.push_back(warning); });
  EXPECT_FALSE(next.get(sha256_hex("other"), dir.path() / "out"));
  ASSERT_EQ(later.size(), 1u);
  EXPECT_NE(later[0].find("skipped: it failed moments ago"), std::string::npos) << later[0];
}

TEST(PackageCache, ConfigurationFromJsonChecksItsValues) {
  EXPECT_TRUE(fails_with([] { package_cache_config_from_json(json::object()); }, {"cache_dir"}));
  EXPECT_TRUE(fails_with([] { package_cache_config_from_json({{"cache_dir", "c"}, {"remote", "ftp://x"}}); },
                         {"not an http:// or https:// URL"}));
  EXPECT_TRUE(fails_with([] { package_cache_config_from_json({{"cache_dir", "c"}, {"max_size", "lots"}}); },
                         {"is not a size"}));
  PackageCacheConfig config = package_cache_config_from_json(
      {{"cache_dir", "c"}, {"remote", "http://h:1/p"}, {"remote_read_only", true}, {"remote_timeout", 0.5}});
  EXPECT_FALSE(config.remote_writes);
  EXPECT_EQ(config.remote_timeout, std::chrono::milliseconds(500));
}

// Issue 30 (D5): a timeout below a millisecond was 0 ms, which curl reads as its 300 s default.
TEST(PackageCache, ParseSecondsNeverRoundsATimeoutToZero) {
  EXPECT_EQ(parse_seconds("0.0001"), std::chrono::milliseconds(1));
  EXPECT_EQ(parse_seconds("0.0015"), std::chrono::milliseconds(2));
  EXPECT_EQ(parse_seconds("2.5"), std::chrono::milliseconds(2500));
  for (const char* bad : {"0", "-1", "3601", "x", ""}) {
    EXPECT_TRUE(fails_with([&] { parse_seconds(bad); }, {"is not a number of seconds in (0, 3600]"})) << bad;
  }
}

// Issue 30 (D6): what may be shown of a remote URL.
TEST(PackageCache, DisplayUrlHidesCredentials) {
  EXPECT_EQ(display_url("http://ci:s3cret@cache.example:8080/llgo"), "http://***@cache.example:8080/llgo");
  EXPECT_EQ(display_url("https://token@cache.example/p@th"), "https://***@cache.example/p@th");
  EXPECT_EQ(display_url("http://cache.example/a@b"), "http://cache.example/a@b");
  EXPECT_EQ(display_url("http://u:p@h?q=@x"), "http://***@h?q=@x");
  EXPECT_TRUE(fails_with([] { check_remote_cache_url("ftp://u:pw@h/"); }, {"ftp://***@h/"}));
  EXPECT_FALSE(fails_with([] { check_remote_cache_url("ftp://u:pw@h/"); }, {"pw@"}));
}

TEST(PackageCache, HeaderFilesNameTheLineNotItsText) {
  TemporaryDirectory dir("package-cache");
  fs::path good = dir.write("headers", "# comment\n\nAuthorization: Bearer abc\r\nX-Team: llgo\n");
  EXPECT_EQ(read_header_file(good), (std::vector<std::string>{"Authorization: Bearer abc", "X-Team: llgo"}));
  fs::path bad = dir.write("bad", "X-Ok: 1\nBearer secret-token\n");
  std::string message;
  try {
    read_header_file(bad);
  } catch (const DriverError& error) {
    message = error.what();
  }
  EXPECT_NE(message.find(":2: not a header line (Name: value)"), std::string::npos) << message;
  EXPECT_EQ(message.find("secret-token"), std::string::npos) << message;
}

// Issue 30 (D8): a build must not fail for its cache.
TEST(PackageCache, AnUnwritableDirectoryTurnsCachingOffWithOneWarning) {
  TemporaryDirectory dir("package-cache");
  PackageCacheConfig config;
  config.dir = dir.write("a-file", "not a directory") / "cache";  // not writable, even for root
  std::vector<std::string> warnings;
  PackageCache cache(config, [&](const std::string& warning) { warnings.push_back(warning); });
  CacheEntry entry = cache.put(kPackageKey, {{"lib.a", dir.write("lib.a", "archive")}}, json::object());
  EXPECT_EQ(entry.outputs[0].sha256, sha256_hex("archive"));
  std::string why;
  EXPECT_FALSE(cache.get(kPackageKey, dir.path() / "out", &why));
  EXPECT_NE(why.find("caching is off"), std::string::npos) << why;
  EXPECT_FALSE(cache.has(kPackageKey));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("is not writable"), std::string::npos) << warnings[0];
  EXPECT_TRUE(cache.counts().local_disabled);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

// Calls one C API function and returns its result JSON (failing the test on an error status).
json call(llgo_wasm_status (*function)(const char*, char**, char**), const json& request) {
  char* result = nullptr;
  char* error = nullptr;
  llgo_wasm_status status = function(request.dump().c_str(), &result, &error);
  EXPECT_EQ(status, LLGO_WASM_OK) << (error ? error : "");
  json answer = result ? json::parse(result) : json();
  llgo_wasm_string_free(result);
  llgo_wasm_string_free(error);
  return answer;
}

TEST(CacheCApi, PutGetHasStatsTrimAndErrors) {
  TemporaryDirectory dir("cache-c-api");
  json base = {{"cache_dir", (dir.path() / "cache").string()}};
  json put = base;
  put["key"] = kPackageKey;
  put["outputs"] = {{{"name", "lib/libx.a"}, {"path", dir.write("libx.a", "x archive").string()}}};
  put["metadata"] = {{"tools", {{"clang", "19.1.7"}}}};
  EXPECT_EQ(call(llgo_wasm_cache_put, put)["entry"]["outputs"][0]["sha256"], sha256_hex("x archive"));

  json get = base;
  get["key"] = kPackageKey;
  get["dest"] = (dir.path() / "out").string();
  json hit = call(llgo_wasm_cache_get, get);
  EXPECT_EQ(hit["hit"], true);
  EXPECT_EQ(hit["source"], "local");
  EXPECT_EQ(hit["warnings"], json::array());
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "out/lib/libx.a"));
  EXPECT_EQ(call(llgo_wasm_cache_has, get)["hit"], true);
  EXPECT_EQ(call(llgo_wasm_cache_stats, base)["entries"], 1);

  get["key"] = sha256_hex("absent");
  json miss = call(llgo_wasm_cache_get, get);
  EXPECT_EQ(miss["hit"], false);
  EXPECT_EQ(miss["reason"], "no entry");

  json trim = base;
  trim["max_size"] = "1";
  EXPECT_EQ(call(llgo_wasm_cache_trim, trim)["removed-entries"], 1);

  char* result = nullptr;
  char* error = nullptr;
  EXPECT_EQ(llgo_wasm_cache_get("{\"cache_dir\": \"c\", \"key\": \"nope\", \"dest\": \"d\"}", &result, &error),
            LLGO_WASM_BAD_REQUEST);
  EXPECT_EQ(result, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("is not a cache key"), std::string::npos) << error;
  llgo_wasm_string_free(error);
  // A NULL request is a NULL argument, as the header promises (issue 13), with a message.
  EXPECT_EQ(llgo_wasm_cache_stats(nullptr, &result, &error), LLGO_WASM_NULL_ARGUMENT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("NULL"), std::string::npos) << error;
  llgo_wasm_string_free(error);
}

}  // namespace
