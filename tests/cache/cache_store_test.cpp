// The local content-addressed store (cache_store.hpp) and the entry format (cache_entry.hpp):
// round trip, misses, corruption detected by digest, atomic publication, LRU trimming, and
// concurrent writers of one key.
#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "../driver/test_support.hpp"
#include "llgo_wasm/cache_store.hpp"
#include "llgo_wasm/sha256.hpp"
#include "llgo_wasm/cache_key.hpp"

namespace {

using namespace llgo_wasm;
using llgo_wasm::testing::fails_with;
using llgo_wasm::testing::TemporaryDirectory;
namespace fs = std::filesystem;

const std::string kStoreKey = sha256_hex("a package build");
const std::string kOtherKey = sha256_hex("another package build");

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t files_under(const fs::path& dir) {
  std::size_t count = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file()) ++count;
  }
  return count;
}

TEST(CacheStore, PutThenGetCopiesEveryOutputAndRecordsDigestsSizesAndMetadata) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  fs::path archive = dir.write("build/libllgo_runtime.a", "!<arch>\nruntime objects");
  fs::path object = dir.write("build/start.o", "object bytes");
  CacheEntry put = store.put(kStoreKey, {{"lib/libllgo_runtime.a", archive}, {"start.o", object}},
                             {{"tools", {{"clang", "19.1.7"}}}, {"build-seconds", 1.5}});
  ASSERT_EQ(put.outputs.size(), 2u);
  EXPECT_EQ(put.outputs[0].name, "lib/libllgo_runtime.a");
  EXPECT_EQ(put.outputs[0].sha256, sha256_hex("!<arch>\nruntime objects"));
  EXPECT_EQ(put.outputs[0].size, 23u);
  EXPECT_TRUE(store.has(kStoreKey));

  std::string why;
  std::optional<CacheEntry> got = store.get(kStoreKey, dir.path() / "out", &why);
  ASSERT_TRUE(got) << why;
  EXPECT_EQ(read_file(dir.path() / "out/lib/libllgo_runtime.a"), "!<arch>\nruntime objects");
  EXPECT_EQ(read_file(dir.path() / "out/start.o"), "object bytes");
  EXPECT_EQ(got->metadata["tools"]["clang"], "19.1.7");
  EXPECT_EQ(got->metadata["build-seconds"], 1.5);
  EXPECT_EQ(files_under(dir.path() / "cache/tmp"), 0u) << "temporaries were left behind";
  EXPECT_EQ(store.stats().entries, 1u);
  EXPECT_EQ(store.stats().blobs, 2u);
}

TEST(CacheStore, IdenticalOutputsAreStoredOnce) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  fs::path file = dir.write("a.o", "same bytes");
  store.put(kStoreKey, {{"a.o", file}}, nlohmann::json::object());
  store.put(kOtherKey, {{"b.o", file}}, nlohmann::json::object());
  EXPECT_EQ(store.stats().entries, 2u);
  EXPECT_EQ(store.stats().blobs, 1u);
}

TEST(CacheStore, AnUnknownKeyIsAMiss) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  std::string why;
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out", &why));
  EXPECT_EQ(why, "no entry");
  EXPECT_FALSE(store.has(kStoreKey));
}

TEST(CacheStore, ACorruptedBlobIsAMissAndIsRemovedAndNothingIsPublished) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  fs::path good = dir.write("a.o", "first output");
  fs::path bad = dir.write("z.o", "second output");
  CacheEntry entry = store.put(kStoreKey, {{"a.o", good}, {"z.o", bad}}, nlohmann::json::object());
  fs::path blob = store.blob_path(entry.outputs[1].sha256);
  std::ofstream(blob, std::ios::binary) << "second outpuT";  // same size, other bytes
  EXPECT_TRUE(store.has(kStoreKey)) << "has() checks sizes only";

  std::string why;
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out", &why));
  EXPECT_NE(why.find("corrupted"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(blob)) << "the corrupted blob must be removed";
  EXPECT_FALSE(fs::exists(store.entry_path(kStoreKey))) << "the entry naming it must be removed";
  EXPECT_FALSE(fs::exists(dir.path() / "out/a.o")) << "no output may be published from a failed get";
  EXPECT_EQ(files_under(dir.path() / "out"), 0u) << "temporaries were left in the destination";
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out"));
}

TEST(CacheStore, AMissingBlobIsAMiss) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  CacheEntry entry = store.put(kStoreKey, {{"a.o", dir.write("a.o", "bytes")}}, nlohmann::json::object());
  fs::remove(store.blob_path(entry.outputs[0].sha256));
  EXPECT_FALSE(store.has(kStoreKey));
  std::string why;
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out", &why));
  EXPECT_NE(why.find("missing"), std::string::npos) << why;
}

TEST(CacheStore, AnUnreadableOrForeignEntryIsAMissAndIsRemoved) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  store.put(kStoreKey, {{"a.o", dir.write("a.o", "bytes")}}, nlohmann::json::object());
  fs::create_directories(store.entry_path(kOtherKey).parent_path());
  fs::copy_file(store.entry_path(kStoreKey), store.entry_path(kOtherKey));  // an entry under the wrong key
  std::string why;
  EXPECT_FALSE(store.get(kOtherKey, dir.path() / "out", &why));
  EXPECT_NE(why.find("another key"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(store.entry_path(kOtherKey)));

  std::ofstream(store.entry_path(kStoreKey)) << "{\"format\": \"llgo-wasm-cache-entry/1\", \"key\": ";  // torn
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out", &why));
  EXPECT_NE(why.find("not a JSON object"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(store.entry_path(kStoreKey)));
}

TEST(CacheEntryFormat, OutputNamesMustStayInsideTheDestination) {
  for (const char* name : {"../escape.a", "/etc/passwd", "lib/../../x", "a//b", "./a", "", "lib/"}) {
    EXPECT_TRUE(fails_with([&] { check_output_name(name); }, {"output name"})) << name;
  }
  check_output_name("lib/libllgo_runtime.a");
  std::string hostile = R"({"format": "llgo-wasm-cache-entry/1", "key": ")" + kStoreKey +
                        R"(", "outputs": [{"name": "../../.bashrc", "sha256": ")" + kStoreKey + R"(", "size": 3}]})";
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(hostile, kStoreKey); }, {"../../.bashrc"}));
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  EXPECT_TRUE(fails_with([&] { store.put(kStoreKey, {{"../a.o", dir.write("a.o", "x")}}, nlohmann::json::object()); },
                         {"output name \"../a.o\""}));
  EXPECT_TRUE(fails_with([&] { store.put("not-a-key", {}, nlohmann::json::object()); }, {"is not a cache key"}));
}

TEST(CacheEntryFormat, RoundTripsAndRejectsBadDigests) {
  CacheEntry entry{kStoreKey, {{"a.o", kOtherKey, 5}}, {{"tools", {{"clang", "19"}}}}};
  CacheEntry back = parse_cache_entry(serialize_cache_entry(entry), kStoreKey);
  EXPECT_EQ(back.outputs[0].sha256, kOtherKey);
  EXPECT_EQ(back.metadata, entry.metadata);
  entry.outputs[0].sha256 = "abc";
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(serialize_cache_entry(entry), kStoreKey); }, {"no SHA-256 digest"}));
}

// Issue 30 (D3, D4): an entry that validates as JSON but that no get could write out is refused
// by the parser, so it never reaches the local store; and the bounds of docs/cache.md.
TEST(CacheEntryFormat, AnEntryMustBeWritableAsAWholeAndWithinItsBounds) {
  auto entry_with = [](const std::vector<std::string>& names) {
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& name : names) outputs.push_back({{"name", name}, {"sha256", kOtherKey}, {"size", 1}});
    return nlohmann::json{{"format", "llgo-wasm-cache-entry/1"}, {"key", kStoreKey}, {"outputs", outputs}}.dump();
  };
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(entry_with({"lib", "lib/x.a"}), kStoreKey); },
                         {"output lib is also the directory of output lib/x.a"}));
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(entry_with({"a/b", "a/b-c", "a/b/c/d"}), kStoreKey); },
                         {"output a/b is also the directory of output a/b/c/d"}));
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(entry_with({std::string(256, 'a')}), kStoreKey); },
                         {"has a part of 256 bytes, more than a file system takes (255)"}));
  std::string deep;
  for (int i = 0; i < 33; ++i) deep += (i ? "/d" : "d");
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(entry_with({deep}), kStoreKey); }, {"more than 32 levels deep"}));
  std::string long_name;
  for (int i = 0; i < 5; ++i) long_name += std::string(250, 'n') + "/";
  long_name += "x";
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(entry_with({long_name}), kStoreKey); }, {"more than 1024"}));
  std::vector<std::string> many;
  for (int i = 0; i < 1001; ++i) many.push_back("o" + std::to_string(i));
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(entry_with(many), kStoreKey); },
                         {"1001 outputs, more than an entry may hold (1000)"}));
  many.pop_back();
  EXPECT_EQ(parse_cache_entry(entry_with(many), kStoreKey).outputs.size(), 1000u);
  std::string huge = entry_with({"a.o"});
  huge.insert(huge.size() - 1, ", \"metadata\": {\"pad\": \"" + std::string(1 << 20, 'p') + "\"}");
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(huge, kStoreKey); }, {"more than an entry may have (1048576)"}));
  std::string nested = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_TRUE(fails_with([&] { parse_cache_entry(nested, kStoreKey); }, {"nested more than 64 levels deep"}));
}

TEST(CacheStore, PutRefusesOutputsThatCouldNotBeGotBack) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  fs::path file = dir.write("a.o", "x");
  EXPECT_TRUE(fails_with([&] { store.put(kStoreKey, {{"lib", file}, {"lib/a.o", file}}, nlohmann::json::object()); },
                         {"cache put: output lib is also the directory of output lib/a.o"}));
  std::vector<std::pair<std::string, fs::path>> many;
  for (int i = 0; i < 1001; ++i) many.emplace_back("o" + std::to_string(i), file);
  EXPECT_TRUE(fails_with([&] { store.put(kStoreKey, many, nlohmann::json::object()); }, {"1001 outputs"}));
  EXPECT_EQ(store.stats().blobs, 0u) << "nothing may be stored before the names are checked";
}

// Issue 30 (D7): an entry whose size for a blob is not the blob's is a miss for get as for has.
TEST(CacheStore, AnEntryWhoseSizeIsNotItsBlobsIsAMissForHasAndGet) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  CacheEntry entry = store.put(kStoreKey, {{"a.o", dir.write("a.o", "bytes")}}, nlohmann::json::object());
  entry.outputs[0].size = 6;
  store.write_entry(entry);
  EXPECT_FALSE(store.has(kStoreKey));
  std::string why;
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out", &why));
  EXPECT_NE(why.find("the entry says output a.o has 6 bytes, but its blob has 5"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << "a miss must leave the destination as it was";
  EXPECT_TRUE(store.has_blob(entry.outputs[0].sha256)) << "the blob is right; the entry was wrong";
  EXPECT_FALSE(fs::exists(store.entry_path(kStoreKey)));
}

// Issue 30 (D4, D8): a failed get removes what it staged and every directory it created.
TEST(CacheStore, AFailedGetLeavesTheDestinationAsItWas) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  CacheEntry entry = store.put(kStoreKey, {{"lib/deep/a.o", dir.write("a.o", "first")}, {"z.o", dir.write("z.o", "second")}},
                               nlohmann::json::object());
  std::ofstream(store.blob_path(entry.outputs[1].sha256), std::ios::binary) << "secont";
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "new/out"));
  EXPECT_FALSE(fs::exists(dir.path() / "new")) << "the directories a failed get created must go";

  // A destination where the outputs cannot go: a miss (not an error), the destination unchanged.
  store.put(kStoreKey, {{"lib/deep/a.o", dir.write("a.o", "first")}}, nlohmann::json::object());
  fs::create_directories(dir.path() / "busy");
  dir.write("busy/lib", "a file where the entry needs a directory");
  std::string why;
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "busy", &why));
  EXPECT_NE(why.find("a file is in the way of output lib/deep/a.o"), std::string::npos) << why;
  EXPECT_EQ(files_under(dir.path() / "busy"), 1u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path() / "busy"), fs::directory_iterator()), 1);
  EXPECT_TRUE(store.has(kStoreKey)) << "the entry is fine; the destination was not";
}

// Issue 30 (D3): the caller names the outputs it expects; an entry with others is a miss.
TEST(CacheStore, AnEntryWithOtherOutputsThanExpectedIsAMiss) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  store.put(kStoreKey, {{"lib.a", dir.write("a", "a")}, {"evil.sh", dir.write("b", "b")}}, nlohmann::json::object());
  std::vector<std::string> expected = {"lib.a"};
  std::string why;
  EXPECT_FALSE(store.get(kStoreKey, dir.path() / "out", &why, &expected));
  EXPECT_EQ(why, "the entry's outputs are not the expected ones (unexpected: evil.sh)");
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  expected = {"lib.a", "evil.sh"};
  EXPECT_TRUE(store.get(kStoreKey, dir.path() / "out", &why, &expected)) << why;
}

// Issue 30 (D8): temporaries count in stats and against the bound; trim sweeps old ones.
TEST(CacheStore, StatsAndTrimCountTemporaries) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  store.put(kStoreKey, {{"a.o", dir.write("a.o", "bytes")}}, nlohmann::json::object());
  std::uint64_t stored = store.stats().bytes;
  fs::path young = dir.write("cache/tmp/blob-1-2-3", std::string(1000, 'y'));
  fs::path old = dir.write("cache/tmp/blob-4-5-6", std::string(500, 'o'));
  fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(2));
  EXPECT_EQ(store.stats().temporaries, 2u);
  EXPECT_EQ(store.stats().bytes, stored + 1500);
  TrimResult trimmed = store.trim(stored + 1000, std::chrono::seconds(0));
  EXPECT_FALSE(fs::exists(old));
  EXPECT_TRUE(fs::exists(young)) << "a young temporary is a write in progress";
  EXPECT_EQ(trimmed.removed_entries, 0u);
  EXPECT_EQ(trimmed.bytes_after, stored + 1000);
  trimmed = store.trim(stored, std::chrono::seconds(0));
  EXPECT_EQ(trimmed.removed_entries, 1u) << "the young temporary counts against the bound";
}

// Sets an entry's last use, and its blobs', as a get() at that time would.
void used_at(CacheStore& store, const std::string& key, fs::file_time_type when) {
  fs::last_write_time(store.entry_path(key), when);
  std::optional<CacheEntry> entry = store.read_entry(key);
  for (const auto& output : entry->outputs) fs::last_write_time(store.blob_path(output.sha256), when);
}

TEST(CacheStore, TrimRemovesTheLeastRecentlyUsedEntriesAndTheirBlobs) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  std::vector<std::string> keys;
  auto start = fs::file_time_type::clock::now() - std::chrono::hours(3);
  for (int i = 0; i < 3; ++i) {
    keys.push_back(sha256_hex("key " + std::to_string(i)));
    store.put(keys.back(), {{"lib.a", dir.write("lib" + std::to_string(i), std::string(10000, char('a' + i)))}},
              nlohmann::json::object());
    used_at(store, keys.back(), start + std::chrono::hours(i));  // 0 oldest, 2 newest
  }
  ASSERT_TRUE(store.get(keys[0], dir.path() / "out"));  // 0 becomes the most recently used
  std::uint64_t before = store.stats().bytes;
  TrimResult trimmed = store.trim(before - 5000, std::chrono::seconds(0));
  EXPECT_EQ(trimmed.removed_entries, 1u);
  EXPECT_EQ(trimmed.removed_blobs, 1u);
  EXPECT_TRUE(store.has(keys[0]));
  EXPECT_FALSE(store.has(keys[1])) << "the least recently used entry must go first";
  EXPECT_TRUE(store.has(keys[2]));
  EXPECT_LE(store.stats().bytes, before - 5000);
  EXPECT_EQ(store.stats().bytes, trimmed.bytes_after);
}

TEST(CacheStore, PutKeepsABoundedStoreWithinItsBound) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache", 25000);
  for (int i = 0; i < 6; ++i) {
    std::string key = sha256_hex("bounded " + std::to_string(i));
    store.put(key, {{"lib.a", dir.write("lib" + std::to_string(i), std::string(10000, char('a' + i)))}},
              nlohmann::json::object());
    used_at(store, key, fs::file_time_type::clock::now() - std::chrono::hours(1) + std::chrono::minutes(i));
  }
  EXPECT_LE(store.stats().bytes, 25000u);
  EXPECT_TRUE(store.has(sha256_hex("bounded 5"))) << "the newest entry must survive";
}

TEST(CacheStore, TrimKeepsYoungUnreferencedBlobsOfAPutInProgress) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  std::unique_ptr<BlobWriter> blob = store.new_blob();
  blob->write("pending", 7);
  std::string digest = *blob->commit();
  store.trim(1, std::chrono::minutes(10));
  EXPECT_TRUE(store.has_blob(digest));
  store.trim(1, std::chrono::seconds(0));
  EXPECT_FALSE(store.has_blob(digest));
}

TEST(CacheStore, ABlobWriterPublishesOnlyTheExpectedDigest) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  std::unique_ptr<BlobWriter> blob = store.new_blob();
  blob->write("downloaded", 10);
  EXPECT_FALSE(blob->commit(sha256_hex("what the server promised")));
  blob.reset();
  EXPECT_EQ(store.stats().blobs, 0u);
  EXPECT_EQ(files_under(dir.path() / "cache/tmp"), 0u);
}

TEST(CacheStore, ConcurrentWritersOfOneKeyLeaveOneCompleteEntry) {
  TemporaryDirectory dir("cache-store");
  CacheStore store(dir.path() / "cache");
  std::vector<std::string> contents;
  for (int i = 0; i < 8; ++i) contents.push_back(std::string(200000 + i, char('a' + i)));  // as if builds differed
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i) {
    writers.emplace_back([&, i] {
      for (int round = 0; round < 5; ++round) {
        store.put(kStoreKey, {{"lib.a", dir.write("w" + std::to_string(i) + "/lib.a", contents[i])}}, nlohmann::json::object());
      }
    });
  }
  std::thread reader([&] {
    for (int round = 0; round < 40; ++round) {
      std::string why;
      fs::path out = dir.path() / ("r" + std::to_string(round));
      if (store.get(kStoreKey, out, &why)) {
        std::string got = read_file(out / "lib.a");
        EXPECT_NE(std::find(contents.begin(), contents.end(), got), contents.end()) << "a torn read";
      } else {
        EXPECT_EQ(why, "no entry");
      }
    }
  });
  for (auto& writer : writers) writer.join();
  reader.join();
  std::string why;
  ASSERT_TRUE(store.get(kStoreKey, dir.path() / "final", &why)) << why;
  EXPECT_NE(std::find(contents.begin(), contents.end(), read_file(dir.path() / "final/lib.a")), contents.end());
  EXPECT_EQ(store.stats().entries, 1u);
  EXPECT_EQ(files_under(dir.path() / "cache/tmp"), 0u);
}

TEST(CacheSizes, ParseSizeReadsUnitsAndRejectsTheRest) {
  EXPECT_EQ(parse_size("123"), 123u);
  EXPECT_EQ(parse_size("64K"), 65536u);
  EXPECT_EQ(parse_size("500M"), 500ull << 20);
  EXPECT_EQ(parse_size("2G"), 2ull << 30);
  for (const char* bad : {"", "G", "2T", "-1", "1.5G", "99999999999999999999"}) {
    EXPECT_TRUE(fails_with([&] { parse_size(bad); }, {"is not a size"})) << bad;
  }
}

}  // namespace
