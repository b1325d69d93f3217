// See cache_key.hpp. The encoding is a sequence of records
//   <name> ' ' <byte length> ':' <value> '\n'
// so no value, whatever bytes it holds, can be confused with a neighbour. Lists are a
// count record followed by one record per item.
#include "llgo_wasm/cache_key.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "descriptor_schema.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/sha256.hpp"
#include "utf8.hpp"

namespace llgo_wasm {
namespace {

class Encoder {
 public:
  explicit Encoder(std::string_view format) { put("format", format); }
  void put(std::string_view name, std::string_view value) {
    out_ += name;
    out_ += ' ';
    out_ += std::to_string(value.size());
    out_ += ':';
    out_ += value;
    out_ += '\n';
  }
  void put_list(std::string_view name, const std::vector<std::string>& values) {
    put(name, std::to_string(values.size()));
    for (const auto& value : values) put("-", value);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Keys of the serialised target that cannot change generated code (dotted paths).
bool is_non_abi(std::string_view path) {
  static constexpr std::array<std::string_view, 12> kNonAbi = {
      "name",    "format-version", "implied",   "origin",
      "overridden-environment",    "descriptor-files",      "output",
      "run-engines", "engines",      "effective", "capabilities.context.supported",
      "capabilities.stacks.supported"};
  return std::find(kNonAbi.begin(), kNonAbi.end(), path) != kNonAbi.end();
}

// One field's value as text: strings as they are, lists as length-prefixed words, maps as
// name=value; entries, other scalars as JSON.
std::string abi_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string out;
    for (const auto& item : value) {
      std::string word = item.is_string() ? item.get<std::string>() : item.dump();
      out += std::to_string(word.size()) + ":" + word + ";";
    }
    return out;
  }
  if (value.is_object()) {
    std::string out;
    for (const auto& [name, item] : value.items()) out += name + "=" + abi_text(item) + ";";
    return out;
  }
  return value.dump();
}

// Every ABI-relevant field of the serialised target, in key order: objects with fixed keys
// (data-model, capabilities, ...) are walked into; maps (environment, context-ldflags) are one field.
void collect_abi_fields(const nlohmann::json& object, const std::string& prefix,
                        std::vector<std::pair<std::string, std::string>>& fields) {
  for (const auto& [key, value] : object.items()) {
    std::string path = prefix.empty() ? key : prefix + "." + key;
    if (is_non_abi(path)) continue;
    std::string schema_path = path;
    std::replace(schema_path.begin(), schema_path.end(), '.', '/');
    const detail::FieldSchema* field = detail::DescriptorSchema::embedded().find(schema_path);
    if (value.is_object() && field && field->kind == detail::FieldKind::Object) {
      collect_abi_fields(value, path, fields);
    } else {
      fields.emplace_back(path, abi_text(value));
    }
  }
}

std::string relative_input_path(const std::filesystem::path& root, const std::string& file) {
  std::filesystem::path path(file);
  std::filesystem::path absolute = path.is_absolute() ? path : root / path;
  std::filesystem::path relative = absolute.lexically_normal().lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") {
    throw DriverError(file + ": not inside the package root " + root.string());
  }
  return relative.generic_string();
}

std::vector<PackageInput> digest_inputs(const CacheKeyRequest& request) {
  std::error_code error;
  // Absolute, so that relative --file arguments and walked paths agree; it is never encoded.
  const std::filesystem::path root = std::filesystem::absolute(request.package_root, error).lexically_normal();
  if (!std::filesystem::is_directory(root, error)) {
    throw DriverError(root.string() + ": the package root is not a directory");
  }
  std::set<std::string> paths;
  if (request.files.empty()) {
    for (auto it = std::filesystem::recursive_directory_iterator(root); it != std::filesystem::recursive_directory_iterator(); ++it) {
      if (it->path().filename().string().rfind('.', 0) == 0) {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file()) paths.insert(it->path().lexically_relative(root).generic_string());
    }
  } else {
    for (const auto& file : request.files) {
      std::string relative = relative_input_path(root, file);
      if (!std::filesystem::is_regular_file(root / relative, error)) {
        throw DriverError(file + ": not a regular file under the package root " + root.string());
      }
      paths.insert(relative);
    }
  }
  std::vector<PackageInput> inputs;
  for (const auto& path : paths) {
    // Input paths are reported as JSON strings, which must be UTF-8.
    if (!detail::is_valid_utf8(path)) {
      throw DriverError((root / detail::printable_utf8(path)).string() +
                        ": the file name is not valid UTF-8; rename the file (input paths are reported as UTF-8)");
    }
    inputs.push_back({path, sha256_file_hex(root / path)});
  }
  return inputs;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> abi_fields(const ResolvedTarget& target) {
  std::vector<std::pair<std::string, std::string>> fields;
  collect_abi_fields(target_to_json(target), "", fields);
  return fields;
}

std::string canonical_cache_key_encoding(const ResolvedTarget& target, const CacheKeyRequest& request,
                                         const std::vector<PackageInput>& inputs) {
  Encoder encoder(kCacheKeyFormat);
  for (const auto& [name, value] : abi_fields(target)) encoder.put("target." + name, value);
  encoder.put("toolchain", std::to_string(request.toolchain.size()));
  for (const auto& [name, version] : request.toolchain) encoder.put("toolchain." + name, version);
  encoder.put_list("flags", request.flags);
  std::vector<PackageInput> sorted_inputs = inputs;
  std::sort(sorted_inputs.begin(), sorted_inputs.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  encoder.put("inputs", std::to_string(sorted_inputs.size()));
  for (const auto& input : sorted_inputs) {
    encoder.put("input.path", input.path);
    encoder.put("input.sha256", input.digest);
  }
  std::vector<std::string> dependencies = request.dependency_keys;
  std::sort(dependencies.begin(), dependencies.end());
  encoder.put_list("dependencies", dependencies);
  return encoder.take();
}

CacheKey compute_cache_key(const ResolvedTarget& target, const CacheKeyRequest& request) {
  CacheKey key;
  key.inputs = digest_inputs(request);
  key.hex = sha256_hex(canonical_cache_key_encoding(target, request, key.inputs));
  return key;
}

nlohmann::json cache_key_to_json(const CacheKey& key) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& input : key.inputs) inputs.push_back({{"path", input.path}, {"sha256", input.digest}});
  return {{"key", key.hex}, {"format", kCacheKeyFormat}, {"inputs", inputs}};
}

std::string sha256_file_hex(const std::filesystem::path& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) throw DriverError(path.string() + ": cannot read the file");
  Sha256 digest;
  // Large reads keep the hash, not the system calls, the bottleneck.
  std::vector<unsigned char> buffer(1 << 20);
  std::size_t count;
  while ((count = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) digest.update(buffer.data(), count);
  if (std::ferror(file.get())) throw DriverError(path.string() + ": read error");
  return digest.hex();
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 digest;
  digest.update(bytes.data(), bytes.size());
  return digest.hex();
}

}  // namespace llgo_wasm
