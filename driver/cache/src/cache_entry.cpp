// See cache_entry.hpp.
#include "llgo_wasm/cache_entry.hpp"

#include <algorithm>
#include <set>

#include "json_text_checks.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/input_limits.hpp"
#include "llgo_wasm/sha256.hpp"

namespace llgo_wasm {

void check_cache_key(std::string_view key) {
  if (!is_sha256_hex(key)) {
    throw DriverError("\"" + std::string(key) + "\" is not a cache key (64 lowercase hex digits, as `llgo-wasm cache-key` prints)");
  }
}

void check_output_name(std::string_view name) {
  auto bad = [&](const std::string& why) {
    std::string shown = name.size() > 120 ? std::string(name.substr(0, 120)) + "..." : std::string(name);
    throw DriverError("output name \"" + shown + "\" " + why + " (a relative path such as lib/libfoo.a)");
  };
  if (name.empty()) bad("is empty");
  if (name.front() == '/') bad("is absolute");
  if (name.find('\\') != std::string_view::npos || name.find('\0') != std::string_view::npos) bad("holds '\\' or NUL");
  if (name.size() > kMaxOutputNameBytes) {
    bad("is " + std::to_string(name.size()) + " bytes long, more than " + std::to_string(kMaxOutputNameBytes));
  }
  std::size_t start = 0, depth = 0;
  while (start <= name.size()) {
    std::size_t slash = name.find('/', start);
    std::string_view part = name.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty() || part == "." || part == "..") bad("has an empty, \".\" or \"..\" part");
    if (part.size() > kMaxOutputNamePartBytes) {
      bad("has a part of " + std::to_string(part.size()) + " bytes, more than a file system takes (" +
          std::to_string(kMaxOutputNamePartBytes) + ")");
    }
    if (++depth > kMaxOutputNameDepth) bad("is more than " + std::to_string(kMaxOutputNameDepth) + " levels deep");
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
}

void check_output_layout(const std::vector<std::string_view>& names) {
  if (names.size() > kMaxCacheOutputs) {
    throw DriverError(std::to_string(names.size()) + " outputs, more than an entry may hold (" +
                      std::to_string(kMaxCacheOutputs) + ")");
  }
  std::set<std::string_view> unique;
  for (auto name : names) {
    if (!unique.insert(name).second) throw DriverError("output " + std::string(name) + " is listed twice");
  }
  // "lib" and "lib/x.a" cannot both be written: one would have to be a file and a directory.
  for (auto name : names) {
    for (std::size_t slash = name.find('/'); slash != std::string_view::npos; slash = name.find('/', slash + 1)) {
      if (unique.count(name.substr(0, slash))) {
        throw DriverError("output " + std::string(name.substr(0, slash)) + " is also the directory of output " +
                          std::string(name));
      }
    }
  }
}

nlohmann::json cache_entry_to_json(const CacheEntry& entry) {
  nlohmann::json outputs = nlohmann::json::array();
  for (const auto& output : entry.outputs) {
    outputs.push_back({{"name", output.name}, {"sha256", output.sha256}, {"size", output.size}});
  }
  return {{"format", kCacheEntryFormat}, {"key", entry.key}, {"outputs", outputs}, {"metadata", entry.metadata}};
}

std::string serialize_cache_entry(const CacheEntry& entry) { return cache_entry_to_json(entry).dump(1) + "\n"; }

CacheEntry parse_cache_entry(std::string_view text, std::string_view expected_key) {
  auto bad = [&](const std::string& why) -> CacheEntry {
    throw DriverError("cache entry " + std::string(expected_key) + ": " + why);
  };
  auto past_bound = [&](const std::string& why) -> CacheEntry {
    throw CacheEntryBoundError("cache entry " + std::string(expected_key) + ": " + why);
  };
  if (text.size() > kMaxCacheEntryBytes) {
    return past_bound(std::to_string(text.size()) + " bytes, more than an entry may have (" +
                      std::to_string(kMaxCacheEntryBytes) + ")");
  }
  try {
    // Depth first: a 1 MiB document nested a million levels deep would cost ~100 MB of DOM.
    detail::check_json_text_limits(text, "cache entry " + std::string(expected_key),
                                   {0, limits::kMaxJsonNestingDepth, "a cache entry"});
  } catch (const DriverError&) {
    return past_bound("nested more than " + std::to_string(limits::kMaxJsonNestingDepth) + " levels deep");
  }
  nlohmann::json document = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (document.is_discarded() || !document.is_object()) return bad("not a JSON object");
  if (document.value("format", "") != kCacheEntryFormat) {
    return bad("format is not " + std::string(kCacheEntryFormat));
  }
  CacheEntry entry;
  if (!document.contains("key") || !document["key"].is_string() || document["key"] != expected_key) {
    return bad("the entry is for another key");
  }
  entry.key = expected_key;
  if (!document.contains("outputs") || !document["outputs"].is_array()) return bad("\"outputs\" is not a list");
  if (document["outputs"].size() > kMaxCacheOutputs) {
    return past_bound(std::to_string(document["outputs"].size()) + " outputs, more than an entry may hold (" +
               std::to_string(kMaxCacheOutputs) + ")");
  }
  try {
    for (const auto& item : document["outputs"]) {
      if (!item.is_object() || !item.contains("name") || !item["name"].is_string() || !item.contains("sha256") ||
          !item["sha256"].is_string() || !item.contains("size") || !item["size"].is_number_unsigned()) {
        return bad("an output lacks a string name, a string sha256 or an unsigned size");
      }
      CacheOutput output{item["name"].get<std::string>(), item["sha256"].get<std::string>(),
                         item["size"].get<std::uint64_t>()};
      check_output_name(output.name);
      if (!is_sha256_hex(output.sha256)) return bad("output " + output.name + " has no SHA-256 digest");
      entry.outputs.push_back(std::move(output));
    }
    std::vector<std::string_view> names;
    for (const auto& output : entry.outputs) names.push_back(output.name);
    check_output_layout(names);
  } catch (const DriverError& failure) {
    return bad(failure.what());
  }
  std::sort(entry.outputs.begin(), entry.outputs.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  if (document.contains("metadata")) {
    if (!document["metadata"].is_object()) return bad("\"metadata\" is not an object");
    entry.metadata = document["metadata"];
  }
  return entry;
}

}  // namespace llgo_wasm
