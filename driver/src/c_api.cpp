// The C API (llgo_wasm.h): JSON in, JSON or error text out, every exception caught
// at the boundary.
#include "llgo_wasm.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include <nlohmann/json.hpp>

#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/output_naming.hpp"
#include "llgo_wasm/resolve.hpp"
#include "llgo_wasm/source_selection.hpp"
#include "c_api_boundary.hpp"

struct llgo_wasm_driver {
  const llgo_wasm::DescriptorSet* descriptors;
};

namespace {

using nlohmann::json;
using namespace llgo_wasm;
using namespace llgo_wasm::detail;

const DescriptorSet& descriptors_of(const llgo_wasm_driver* driver) {
  if (!driver) throw NullArgument("the driver handle is NULL (create one with llgo_wasm_driver_new)");
  return *driver->descriptors;
}

ResolvedTarget resolve_member(const llgo_wasm_driver* driver, const json& request) {
  auto query = request.find("query");
  return resolve_target(descriptors_of(driver), query == request.end() ? Query{} : query_from_json(*query));
}

}  // namespace

extern "C" {

const char* llgo_wasm_version(void) { return LLGO_WASM_VERSION_STRING; }

llgo_wasm_status llgo_wasm_driver_new(llgo_wasm_driver** driver, char** error) {
  if (error) *error = nullptr;
  if (!driver) {
    set_output(error, "the driver pointer is NULL");
    return LLGO_WASM_NULL_ARGUMENT;
  }
  *driver = nullptr;
  char* unused = nullptr;
  llgo_wasm_status status = guarded(&unused, error, [&] {
    *driver = new llgo_wasm_driver{&builtin_descriptors()};
    return std::string("{}");
  });
  std::free(unused);
  return status;
}

void llgo_wasm_driver_free(llgo_wasm_driver* driver) { delete driver; }

llgo_wasm_status llgo_wasm_list_targets(const llgo_wasm_driver* driver, char** result, char** error) {
  return guarded(result, error, [&] {
    return targets_to_json(descriptors_of(driver)).dump();
  });
}

llgo_wasm_status llgo_wasm_resolve(const llgo_wasm_driver* driver, const char* query_json, char** result, char** error) {
  return guarded(result, error, [&] {
    Query query = query_from_json(parse_request(query_json));
    return target_to_json(resolve_target(descriptors_of(driver), query)).dump();
  });
}

llgo_wasm_status llgo_wasm_name_output(const llgo_wasm_driver* driver, const char* request_json, char** result,
                                       char** error) {
  return guarded(result, error, [&] {
    json request = parse_request(request_json);
    ResolvedTarget target = resolve_member(driver, request);
    OutputName name = name_output(target.spec, string_member(request, "output"));
    return json{{"path", name.path}, {"format", to_string(name.format)}}.dump();
  });
}

llgo_wasm_status llgo_wasm_select_sources(const llgo_wasm_driver* driver, const char* request_json, char** result,
                                          char** error) {
  return guarded(result, error, [&] {
    json request = parse_request(request_json);
    ResolvedTarget target = resolve_member(driver, request);
    return sources_to_json(select_runtime_sources(target, string_member(request, "dir"))).dump();
  });
}

llgo_wasm_status llgo_wasm_cache_key(const llgo_wasm_driver* driver, const char* request_json, char** result,
                                     char** error) {
  return guarded(result, error, [&] {
    json request = parse_request(request_json);
    ResolvedTarget target = resolve_member(driver, request);
    CacheKeyRequest key_request{
        .toolchain = optional_member<std::map<std::string, std::string>>(request, "toolchain"),
        .flags = optional_member<std::vector<std::string>>(request, "flags"),
        .package_root = string_member(request, "package_root"),
        .files = optional_member<std::vector<std::string>>(request, "files"),
        .dependency_keys = optional_member<std::vector<std::string>>(request, "dependency_keys"),
    };
    return cache_key_to_json(compute_cache_key(target, key_request)).dump();
  });
}

void llgo_wasm_string_free(char* text) { std::free(text); }

}  // extern "C"
