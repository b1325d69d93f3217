// `llgo-wasm cache-key --package-root DIR ...`: the SHA-256 cache key of a package build.
#include "command_line.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "llgo_wasm/cache_key.hpp"
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/resolve.hpp"

namespace llgo_wasm::cli {

using nlohmann::json;

int cache_key_command(const std::vector<std::string>& words) {
  const Arguments arguments =
      parse_arguments("cache-key", words, {"--package-root", "--file", "--dep-key", "--toolchain-id", "--flag"},
                      {"--json", "--explain"}, false);
  std::optional<std::string> root = single(arguments, "--package-root");
  if (!root) throw DriverError("cache-key: --package-root DIR is required");
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  CacheKeyRequest request;
  request.package_root = *root;
  request.files = all(arguments, "--file");
  request.dependency_keys = all(arguments, "--dep-key");
  request.flags = all(arguments, "--flag");
  for (const auto& identity : all(arguments, "--toolchain-id")) {
    auto equals = identity.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw DriverError("cache-key: --toolchain-id takes NAME=VERSION (e.g. clang=19.1.7), not \"" + identity + "\"");
    }
    request.toolchain[identity.substr(0, equals)] = identity.substr(equals + 1);
  }
  CacheKey key = compute_cache_key(target, request);
  if (arguments.flags.count("--explain")) std::cout << canonical_cache_key_encoding(target, request, key.inputs);
  if (arguments.flags.count("--json")) {
    json document = cache_key_to_json(key);
    document["target"] = target.spec.name;
    std::cout << document.dump(2) << "\n";
  } else {
    std::cout << key.hex << "\n";
  }
  return 0;
}

}  // namespace llgo_wasm::cli
