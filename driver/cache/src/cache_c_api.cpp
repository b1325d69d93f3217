// The package-cache part of the C API (llgo_wasm.h): JSON requests onto PackageCache, warnings
// collected into the result instead of printed.
#include <nlohmann/json.hpp>

#include "c_api_boundary.hpp"
#include "llgo_wasm.h"
#include "llgo_wasm/package_cache.hpp"

namespace {

using nlohmann::json;
using namespace llgo_wasm;
using namespace llgo_wasm::detail;

// Runs `body` with the request and a cache built from it; adds the warnings to its result.
template <typename Body>
llgo_wasm_status with_cache(const char* request_json, char** result, char** error, Body&& body) {
  return guarded(result, error, [&] {
    json request = parse_request(request_json);
    json warnings = json::array();
    PackageCache cache(package_cache_config_from_json(request),
                       [&](const std::string& warning) { warnings.push_back(warning); });
    json answer = body(request, cache);
    answer["warnings"] = warnings;
    return answer.dump();
  });
}

}  // namespace

extern "C" {

llgo_wasm_status llgo_wasm_cache_get(const char* request_json, char** result, char** error) {
  return with_cache(request_json, result, error, [](const json& request, PackageCache& cache) {
    std::optional<std::vector<std::string>> expected;
    if (auto list = request.find("expect"); list != request.end()) {
      if (!list->is_array()) throw DriverError("\"expect\" must be a list of output names");
      expected.emplace();
      for (const auto& name : *list) {
        if (!name.is_string()) throw DriverError("\"expect\" must be a list of output names");
        check_output_name(name.get<std::string>());
        expected->push_back(name.get<std::string>());
      }
    }
    std::string why;
    std::optional<CacheHit> hit = cache.get(string_member(request, "key"), string_member(request, "dest"), &why,
                                            expected ? &*expected : nullptr);
    if (!hit) return json{{"hit", false}, {"reason", why}};
    return json{{"hit", true}, {"source", to_string(hit->source)}, {"entry", cache_entry_to_json(hit->entry)}};
  });
}

llgo_wasm_status llgo_wasm_cache_put(const char* request_json, char** result, char** error) {
  return with_cache(request_json, result, error, [](const json& request, PackageCache& cache) {
    std::vector<std::pair<std::string, std::filesystem::path>> outputs;
    auto list = request.find("outputs");
    if (list == request.end() || !list->is_array() || list->empty()) {
      throw DriverError("the request needs \"outputs\": [{\"name\": ..., \"path\": ...}, ...]");
    }
    for (const auto& output : *list) {
      if (!output.is_object()) throw DriverError("each of \"outputs\" must be {\"name\": ..., \"path\": ...}");
      outputs.emplace_back(string_member(output, "name"), string_member(output, "path"));
    }
    json metadata = request.value("metadata", json::object());
    return json{{"entry", cache_entry_to_json(cache.put(string_member(request, "key"), outputs, metadata))}};
  });
}

llgo_wasm_status llgo_wasm_cache_has(const char* request_json, char** result, char** error) {
  return with_cache(request_json, result, error, [](const json& request, PackageCache& cache) {
    std::string key = string_member(request, "key");
    check_cache_key(key);
    std::optional<CacheSource> source = cache.has(key);
    json answer = {{"hit", source.has_value()}};
    if (source) answer["source"] = to_string(*source);
    return answer;
  });
}

llgo_wasm_status llgo_wasm_cache_stats(const char* request_json, char** result, char** error) {
  return with_cache(request_json, result, error,
                    [](const json&, PackageCache& cache) { return cache_stats_to_json(cache); });
}

llgo_wasm_status llgo_wasm_cache_trim(const char* request_json, char** result, char** error) {
  return with_cache(request_json, result, error, [](const json&, PackageCache& cache) {
    if (cache.config().max_bytes == 0) throw DriverError("cache trim needs \"max_size\" (e.g. \"2G\")");
    cache.check_local_owner();
    TrimResult trimmed = cache.local().trim(cache.config().max_bytes);
    return json{{"removed-entries", trimmed.removed_entries},
                {"removed-blobs", trimmed.removed_blobs},
                {"bytes", trimmed.bytes_after}};
  });
}

}  // extern "C"
