// Loading descriptors: parse with positions, check keys and types against the schema,
// merge `inherits`, check the merged result for completeness and contradictions.
//
// A file becomes a Layer: its identity keys (name, inherits, abstract,
// platform-default, requires-env: never inherited) and a flat map from schema path
// ("capabilities/eh/compile") to the value and where it was written. Merging a
// descriptor starts from its parents' merged maps, in order, and applies its own
// layer: scalars override, lists append. A list value that appears twice is an
// error, unless it is the very same definition reached twice (diamond inheritance).
#include "llgo_wasm/descriptors.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "environment.hpp"
#include "descriptor_parent_path.hpp"
#include "json_positions.hpp"
#include "json_text_checks.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/input_limits.hpp"
#include "suggest.hpp"

namespace llgo_wasm {
namespace {

using nlohmann::json;
using detail::did_you_mean;
using detail::join;

enum class FieldKind { String, Boolean, Integer, StringList, Object, StringMap, NameOrNames };

struct FieldSchema {
  std::string_view path;
  FieldKind kind;
  // Allowed spellings for enumerations (for lists: of every item); null = free text.
  const std::vector<std::string_view>* allowed = nullptr;
};

const std::vector<std::string_view> kNoSpellings;

const std::vector<FieldSchema>& schema() {
  static const std::vector<FieldSchema> fields = {
      {"name", FieldKind::String},
      {"inherits", FieldKind::NameOrNames},
      {"abstract", FieldKind::Boolean},
      {"platform-default", FieldKind::Boolean},
      {"requires-env", FieldKind::StringMap},
      {"variant", FieldKind::String, &variant_names()},
      {"host", FieldKind::Boolean},
      {"goos", FieldKind::String},
      {"goarch", FieldKind::String},
      {"triple", FieldKind::String},
      {"data-model", FieldKind::Object},
      {"data-model/pointer", FieldKind::Integer},
      {"data-model/long", FieldKind::Integer},
      {"data-model/ssize_t", FieldKind::Integer},
      {"capabilities", FieldKind::Object},
      {"capabilities/asyncify", FieldKind::String, &asyncify_mode_names()},
      {"capabilities/memory64", FieldKind::Boolean},
      {"capabilities/threads", FieldKind::Boolean},
      {"capabilities/eh", FieldKind::Object},
      {"capabilities/eh/compile", FieldKind::String, &exception_model_names()},
      {"capabilities/eh/final", FieldKind::String, &exception_model_names()},
      {"capabilities/context", FieldKind::Object},
      {"capabilities/context/default", FieldKind::String, &context_backend_names()},
      {"capabilities/context/supported", FieldKind::StringList, &context_backend_names()},
      {"build-tags", FieldKind::StringList},
      {"cflags", FieldKind::StringList},
      {"ldflags", FieldKind::StringList},
      {"environments", FieldKind::StringList},
      {"default-stack-size", FieldKind::Integer},
      {"output", FieldKind::Object},
      {"output/default-extension", FieldKind::String},
      {"output/accepted-extensions", FieldKind::StringList},
      {"runner", FieldKind::String, &runner_names()},
  };
  return fields;
}

const FieldSchema* find_field(std::string_view path) {
  for (const auto& field : schema()) {
    if (field.path == path) return &field;
  }
  return nullptr;
}

// The keys the schema allows directly under `parent` ("" for the top level).
std::vector<std::string> keys_under(const std::string& parent) {
  std::vector<std::string> keys;
  for (const auto& field : schema()) {
    std::string_view path = field.path;
    std::string_view prefix = parent.empty() ? std::string_view() : std::string_view(parent);
    if (!prefix.empty()) {
      if (path.size() <= prefix.size() + 1 || path.substr(0, prefix.size()) != prefix || path[prefix.size()] != '/') {
        continue;
      }
      path.remove_prefix(prefix.size() + 1);
    }
    if (path.find('/') == std::string_view::npos) keys.emplace_back(path);
  }
  return keys;
}

// "capabilities/eh/compile" -> "capabilities.eh.compile", for messages.
std::string dotted(std::string_view path) {
  std::string out(path);
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

struct Leaf {
  json value;                           // scalar, string map, or array for lists
  Location where;                       // of the value
  std::vector<Location> item_locations; // lists: of each item
};

using LeafMap = std::map<std::string, Leaf>;

struct Parent {
  std::string reference;  // a descriptor name, or a .json path relative to the file
  Location where;
};

struct Layer {
  std::string file_name;
  std::string name;
  Location name_location;
  bool is_abstract = false;
  bool platform_default = false;
  std::map<std::string, std::string> required_environment;
  Location required_environment_location;
  std::vector<Parent> parents;
  LeafMap leaves;
};

std::string kind_description(FieldKind kind) {
  switch (kind) {
    case FieldKind::String: return "a string";
    case FieldKind::Boolean: return "true or false";
    case FieldKind::Integer: return "a positive integer";
    case FieldKind::StringList: return "a list of strings";
    case FieldKind::Object: return "an object";
    case FieldKind::StringMap: return "an object of strings";
    case FieldKind::NameOrNames: return "a descriptor name or a list of them";
  }
  return "?";
}

std::string type_name(const json& value) {
  if (value.is_string()) return "the string " + value.dump();
  if (value.is_boolean()) return value.dump();
  if (value.is_number()) return "the number " + value.dump();
  if (value.is_array()) return "a list";
  if (value.is_object()) return "an object";
  return "null";
}

class LayerParser {
 public:
  LayerParser(const DescriptorSource& source) : source_(source) {}

  Layer parse() {
    detail::check_json_text_limits(source_.text, source_.file_name,
                                   {limits::kMaxDescriptorBytes, limits::kMaxJsonNestingDepth, "a target descriptor"});
    json document;
    try {
      document = json::parse(source_.text);
    } catch (const json::parse_error& error) {
      throw detail::json_syntax_error(error, source_.text, source_.file_name);
    }
    positions_ = detail::scan_json_positions(source_.text, source_.file_name);
    if (!document.is_object()) {
      throw DriverError(positions_.value_at(""), "a target descriptor must be a JSON object");
    }
    layer_.file_name = source_.file_name;
    walk(document, "");
    if (layer_.name.empty()) {
      throw DriverError(Location{source_.file_name, 1, 1}, "the descriptor has no \"name\"");
    }
    return std::move(layer_);
  }

 private:
  void walk(const json& object, const std::string& parent) {
    for (const auto& [key, value] : object.items()) {
      if (key.rfind("//", 0) == 0) continue;  // a comment: the reason for a neighbouring value
      std::string path = parent.empty() ? key : parent + "/" + key;
      std::string position_path = detail::json_path_append(parent_position_path(parent), key);
      const FieldSchema* field = find_field(path);
      if (!field) {
        std::vector<std::string> known = keys_under(parent);
        std::string where = parent.empty() ? "a target descriptor" : "\"" + dotted(parent) + "\"";
        throw DriverError(positions_.key_at(position_path), "unknown key \"" + key + "\" in " + where +
                                                                did_you_mean(key, known) + "; known keys: " + join(known));
      }
      check_type(*field, value, position_path);
      if (field->kind == FieldKind::Object) {
        walk(value, path);
      } else {
        record(*field, path, value, position_path);
      }
    }
  }

  // Position paths escape '/' inside keys; schema paths never contain one, so the
  // schema path doubles as the position path of the parent object.
  static std::string parent_position_path(const std::string& parent) { return parent; }

  void check_type(const FieldSchema& field, const json& value, const std::string& position_path) {
    auto fail = [&](const std::string& detail, const std::string& at) {
      throw DriverError(positions_.value_at(at),
                        "\"" + dotted(field.path) + "\" must be " + detail + ", not " + type_name(value));
    };
    switch (field.kind) {
      case FieldKind::String:
        if (!value.is_string()) fail(kind_description(field.kind), position_path);
        break;
      case FieldKind::Boolean:
        if (!value.is_boolean()) fail(kind_description(field.kind), position_path);
        break;
      case FieldKind::Integer:
        if (!value.is_number_unsigned() || value.get<std::uint64_t>() == 0) fail(kind_description(field.kind), position_path);
        break;
      case FieldKind::Object:
      case FieldKind::StringMap:
        if (!value.is_object()) fail(kind_description(field.kind), position_path);
        if (field.kind == FieldKind::StringMap) {
          for (const auto& [key, item] : value.items()) {
            if (!item.is_string()) {
              throw DriverError(positions_.value_at(detail::json_path_append(position_path, key)),
                                "\"" + dotted(field.path) + "." + key + "\" must be a string, not " + type_name(item));
            }
          }
        }
        break;
      case FieldKind::StringList:
      case FieldKind::NameOrNames:
        if (field.kind == FieldKind::NameOrNames && value.is_string()) break;
        if (!value.is_array()) fail(kind_description(field.kind), position_path);
        for (std::size_t i = 0; i < value.size(); ++i) {
          if (!value[i].is_string()) {
            throw DriverError(positions_.value_at(detail::json_path_append(position_path, i)),
                              "\"" + dotted(field.path) + "\" must be " + kind_description(field.kind) +
                                  ", but item " + std::to_string(i + 1) + " is " + type_name(value[i]));
          }
        }
        break;
    }
    if (field.allowed) {
      auto check_spelling = [&](const json& item, const std::string& at) {
        std::string spelling = item.get<std::string>();
        if (std::find(field.allowed->begin(), field.allowed->end(), spelling) != field.allowed->end()) return;
        std::vector<std::string> allowed(field.allowed->begin(), field.allowed->end());
        throw DriverError(positions_.value_at(at), "\"" + dotted(field.path) + "\" cannot be \"" + spelling + "\"" +
                                                       did_you_mean(spelling, allowed) + "; expected one of " + join(allowed));
      };
      if (value.is_string()) check_spelling(value, position_path);
      if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
          check_spelling(value[i], detail::json_path_append(position_path, i));
        }
      }
    }
  }

  void record(const FieldSchema& field, const std::string& path, const json& value, const std::string& position_path) {
    Location where = positions_.value_at(position_path);
    if (path == "name") {
      layer_.name = value.get<std::string>();
      layer_.name_location = where;
    } else if (path == "abstract") {
      layer_.is_abstract = value.get<bool>();
    } else if (path == "platform-default") {
      layer_.platform_default = value.get<bool>();
    } else if (path == "requires-env") {
      layer_.required_environment = value.get<std::map<std::string, std::string>>();
      layer_.required_environment_location = where;
    } else if (path == "inherits") {
      if (value.is_string()) {
        layer_.parents.push_back({value.get<std::string>(), where});
      } else {
        for (std::size_t i = 0; i < value.size(); ++i) {
          layer_.parents.push_back(
              {value[i].get<std::string>(), positions_.value_at(detail::json_path_append(position_path, i))});
        }
      }
    } else {
      Leaf leaf{value, where, {}};
      if (field.kind == FieldKind::StringList) {
        for (std::size_t i = 0; i < value.size(); ++i) {
          leaf.item_locations.push_back(positions_.value_at(detail::json_path_append(position_path, i)));
        }
      }
      layer_.leaves[path] = std::move(leaf);
    }
  }

  const DescriptorSource& source_;
  detail::JsonPositions positions_;
  Layer layer_;
};

void merge_into(LeafMap& merged, const LeafMap& layer) {
  for (const auto& [path, leaf] : layer) {
    const FieldSchema* field = find_field(path);
    auto existing = merged.find(path);
    if (existing == merged.end()) {
      // A list can still hold duplicates within one file.
      Leaf copy{json::array(), leaf.where, {}};
      if (field->kind != FieldKind::StringList) {
        merged[path] = leaf;
        continue;
      }
      existing = merged.emplace(path, std::move(copy)).first;
    }
    if (field->kind != FieldKind::StringList) {
      existing->second = leaf;  // scalars override
      continue;
    }
    Leaf& list = existing->second;
    // Items are unique strings: index them, so a long list costs linear time, not quadratic.
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t j = 0; j < list.value.size(); ++j) index.emplace(list.value[j].get<std::string>(), j);
    for (std::size_t i = 0; i < leaf.value.size(); ++i) {
      const json& item = leaf.value[i];
      const Location& item_location = leaf.item_locations[i];
      auto [found, inserted] = index.emplace(item.get<std::string>(), list.value.size());
      if (!inserted) {
        std::size_t j = found->second;
        if (list.item_locations[j] == item_location) continue;  // the same definition, inherited along two paths
        throw DriverError(item_location, "\"" + dotted(path) + "\" already contains " + item.dump() + " (from " +
                                             list.item_locations[j].to_string() +
                                             "); lists append along `inherits`, so list each value once");
      }
      list.value.push_back(item);
      list.item_locations.push_back(item_location);
    }
  }
}

// Pointer width in bytes implied by a triple's architecture, or 0 when unknown.
int triple_pointer_width(std::string_view triple) {
  std::string_view arch = triple.substr(0, triple.find('-'));
  if (arch == "wasm32" || arch == "i386" || arch == "i686" || arch == "arm" || arch == "armv7" || arch == "riscv32") {
    return 4;
  }
  if (arch == "wasm64" || arch == "x86_64" || arch == "aarch64" || arch == "arm64" || arch == "riscv64") return 8;
  return 0;
}

bool triple_is_wasm(std::string_view triple) { return triple.rfind("wasm", 0) == 0; }
bool triple_is_emscripten(std::string_view triple) { return triple.find("-emscripten") != std::string_view::npos; }
bool triple_is_wasi(std::string_view triple) { return triple.find("-wasi") != std::string_view::npos; }

// Turns a merged leaf map into a complete, consistent descriptor, or explains why not.
class DescriptorChecker {
 public:
  DescriptorChecker(const Layer& layer, const LeafMap& leaves, std::vector<std::string> files)
      : layer_(layer), leaves_(leaves), files_(std::move(files)) {}

  TargetDescriptor check() {
    TargetDescriptor descriptor;
    descriptor.platform_default = layer_.platform_default;
    descriptor.required_environment = layer_.required_environment;
    descriptor.files = files_;
    TargetSpec& spec = descriptor.spec;
    spec.name = layer_.name;
    spec.variant = *parse_variant(string("variant"));

    bool host = has("host") && leaves_.at("host").value.get<bool>();
    if (host) {
      for (const char* path : {"goos", "goarch", "triple", "data-model/pointer", "data-model/long", "data-model/ssize_t"}) {
        if (has(path)) {
          fail(path, "\"" + dotted(path) + "\" cannot be set on a host descriptor: it comes from the platform the driver was built for");
        }
      }
      const HostPlatform& platform = host_platform();
      spec.goos = platform.goos;
      spec.goarch = platform.goarch;
      spec.triple = platform.triple;
      spec.data_model = platform.data_model;
    } else {
      spec.goos = string("goos");
      spec.goarch = string("goarch");
      spec.triple = string("triple");
      spec.data_model = {integer("data-model/pointer"), integer("data-model/long"), integer("data-model/ssize_t")};
    }
    Capabilities& capabilities = spec.capabilities;
    capabilities.asyncify = *parse_asyncify_mode(string("capabilities/asyncify"));
    capabilities.memory64 = boolean("capabilities/memory64");
    capabilities.threads = boolean("capabilities/threads");
    capabilities.eh.compile = *parse_exception_model(string("capabilities/eh/compile"));
    capabilities.eh.final = *parse_exception_model(string("capabilities/eh/final"));
    capabilities.context = *parse_context_backend(string("capabilities/context/default"));
    for (const auto& name : strings("capabilities/context/supported")) {
      capabilities.supported_contexts.push_back(*parse_context_backend(name));
    }
    spec.build_tags = optional_strings("build-tags");
    spec.cflags = optional_strings("cflags");
    spec.ldflags = optional_strings("ldflags");
    spec.environments = optional_strings("environments");
    spec.default_stack_size = leaf("default-stack-size").value.get<std::uint64_t>();
    spec.output.default_extension = string("output/default-extension");
    spec.output.accepted_extensions = optional_strings("output/accepted-extensions");
    spec.runner = *parse_runner(string("runner"));

    check_consistency(spec, host);
    if (!spec.environments.empty()) {
      // Emscripten takes the list as one setting; derived here so it is written once.
      spec.ldflags.push_back("-sENVIRONMENT=" + join(spec.environments, ","));
    }
    return descriptor;
  }

 private:
  void check_consistency(const TargetSpec& spec, bool host) {
    const Capabilities& caps = spec.capabilities;
    const std::string& triple = spec.triple;
    const DataModel& model = spec.data_model;
    if (!host) {
      int width = triple_pointer_width(triple);
      if (width != 0 && model.pointer != width) {
        fail("data-model/pointer", "data-model.pointer is " + std::to_string(model.pointer) + " but triple \"" + triple +
                                       "\" (" + where("triple") + ") has " + std::to_string(width) + "-byte pointers");
      }
      for (const char* path : {"data-model/pointer", "data-model/long"}) {
        int size = integer(path);
        if (size != 4 && size != 8) fail(path, "\"" + dotted(path) + "\" must be 4 or 8, not " + std::to_string(size));
      }
      if (model.ssize_t_size != model.pointer) {
        fail("data-model/ssize_t", "data-model.ssize_t is " + std::to_string(model.ssize_t_size) +
                                       " but must follow the pointer width (" + std::to_string(model.pointer) +
                                       "), or write() gets an i32/i64 signature mismatch");
      }
      if (model.long_size > model.pointer) {
        fail("data-model/long", "data-model.long (" + std::to_string(model.long_size) +
                                    ") cannot be wider than a pointer (" + std::to_string(model.pointer) + ")");
      }
    }
    bool wasm = triple_is_wasm(triple);
    bool emscripten = triple_is_emscripten(triple);
    bool wasi = triple_is_wasi(triple) || spec.goos == "wasip1";
    if (caps.memory64 && wasi) {
      fail("capabilities/memory64", "capabilities.memory64 is true on a WASI target (triple \"" + triple +
                                        "\"): WASI sysroots are wasm32 only; use an Emscripten target such as js-wasm for Memory64");
    }
    if (wasm && caps.memory64 != (triple.rfind("wasm64", 0) == 0)) {
      fail("capabilities/memory64", std::string("capabilities.memory64 is ") + (caps.memory64 ? "true" : "false") +
                                        " but triple \"" + triple + "\" (" + where("triple") + ") is " +
                                        (caps.memory64 ? "wasm32" : "wasm64") + "; Memory64 goes with wasm64 triples only");
    }
    if (!wasm && caps.memory64) fail("capabilities/memory64", "capabilities.memory64 is only meaningful for wasm64 triples");
    if (caps.asyncify == AsyncifyMode::PostLink && caps.threads) {
      fail_at_later("capabilities/asyncify", "capabilities.asyncify \"post-link\"", "capabilities/threads",
                    "capabilities.threads true",
                    "Asyncify instruments a single stack and is unsafe with shared-memory threads");
    }
    if (caps.asyncify == AsyncifyMode::Emscripten && !emscripten) {
      fail("capabilities/asyncify", "capabilities.asyncify \"emscripten\" needs an Emscripten triple, not \"" + triple + "\"");
    }
    if (caps.asyncify == AsyncifyMode::PostLink && !wasm) {
      fail("capabilities/asyncify", "capabilities.asyncify \"post-link\" needs a wasm triple, not \"" + triple + "\"");
    }
    const auto& supported = caps.supported_contexts;
    auto supports = [&](ContextBackend context) {
      return std::find(supported.begin(), supported.end(), context) != supported.end();
    };
    if (!supports(caps.context)) {
      std::vector<std::string> names;
      for (auto context : supported) names.emplace_back(to_string(context));
      fail("capabilities/context/default", "default context \"" + std::string(to_string(caps.context)) +
                                               "\" is not among the supported ones (" + join(names) + ")");
    }
    for (std::size_t i = 0; i < supported.size(); ++i) {
      ContextBackend context = supported[i];
      std::string name(to_string(context));
      auto at = [&] { return leaf("capabilities/context/supported").item_locations[i]; };
      if (context == ContextBackend::EmscriptenFiber && !emscripten) {
        throw DriverError(at(), "context \"emscripten-fiber\" needs an Emscripten target, but the triple is \"" + triple + "\" (" +
                                    where("triple") + ")");
      }
      if (context == ContextBackend::Asyncify && caps.asyncify == AsyncifyMode::None) {
        throw DriverError(at(), "context \"asyncify\" needs capabilities.asyncify other than \"none\" (" +
                                    where("capabilities/asyncify") + ")");
      }
      if (context == ContextBackend::Pthread && !caps.threads) {
        throw DriverError(at(), "context \"pthread\" needs capabilities.threads true (" + where("capabilities/threads") + ")");
      }
      if (context == ContextBackend::Ucontext && wasm) {
        throw DriverError(at(), "context \"ucontext\" is for native targets; wasm has no ucontext");
      }
    }
    auto check_eh = [&](const char* path, ExceptionModel model) {
      bool ok = model == ExceptionModel::None || (model == ExceptionModel::Emscripten && emscripten) ||
                ((model == ExceptionModel::Legacy || model == ExceptionModel::Exnref) && wasm && !emscripten) ||
                (model == ExceptionModel::Host && !wasm);
      if (!ok) {
        fail(path, "\"" + dotted(path) + "\" cannot be \"" + std::string(to_string(model)) + "\" for triple \"" + triple +
                       "\": emscripten is for Emscripten triples, legacy/exnref for other wasm triples, host for native ones");
      }
    };
    check_eh("capabilities/eh/compile", caps.eh.compile);
    check_eh("capabilities/eh/final", caps.eh.final);
    if (caps.eh.compile != caps.eh.final && caps.asyncify != AsyncifyMode::PostLink) {
      fail("capabilities/eh/final", "capabilities.eh changes from \"" + std::string(to_string(caps.eh.compile)) + "\" to \"" +
                                        std::string(to_string(caps.eh.final)) +
                                        "\" but only a post-link step can translate it (capabilities.asyncify is \"" +
                                        std::string(to_string(caps.asyncify)) + "\")");
    }
    if (!spec.environments.empty() && !emscripten) {
      fail("environments", "\"environments\" is an Emscripten setting, but the triple is \"" + triple + "\"");
    }
    const OutputPolicy& output = spec.output;
    auto check_extension = [&](const std::string& extension, const Location& at) {
      if (extension.size() < 2 || extension[0] != '.' || extension.find_first_of("./\\", 1) != std::string::npos) {
        throw DriverError(at, "\"" + extension + "\" is not a file extension (expected a dot and a word, such as \".wasm\")");
      }
    };
    if (!output.default_extension.empty()) check_extension(output.default_extension, where_of("output/default-extension"));
    for (std::size_t i = 0; i < output.accepted_extensions.size(); ++i) {
      check_extension(output.accepted_extensions[i], leaf("output/accepted-extensions").item_locations[i]);
    }
    if (!output.accepted_extensions.empty() &&
        std::find(output.accepted_extensions.begin(), output.accepted_extensions.end(), output.default_extension) ==
            output.accepted_extensions.end()) {
      fail("output/default-extension", "output.default-extension \"" + output.default_extension +
                                           "\" is not among output.accepted-extensions (" + join(output.accepted_extensions) + ")");
    }
    if (spec.default_stack_size % 16 != 0) {
      fail("default-stack-size", "default-stack-size must be a multiple of 16 (stack alignment), not " +
                                     std::to_string(spec.default_stack_size));
    }
    if (wasm && spec.runner == Runner::Native) fail("runner", "runner \"native\" cannot run a wasm module");
    if (!wasm && spec.runner != Runner::Native) fail("runner", "a native target runs with runner \"native\"");
    if (has("build-tags")) {
      const Leaf& tags = leaf("build-tags");
      for (std::size_t i = 0; i < tags.value.size(); ++i) {
        std::string tag = tags.value[i].get<std::string>();
        bool valid = !tag.empty() && std::all_of(tag.begin(), tag.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
        });
        if (!valid) {
          throw DriverError(tags.item_locations[i], "build tag \"" + tag + "\" is not an identifier (letters, digits, '_' and '.')");
        }
      }
    }
    for (const auto& [name, value] : layer_.required_environment) {
      if (name != detail::wasi_threads_variable().name) {
        throw DriverError(layer_.required_environment_location,
                          "requires-env can only name " + std::string(detail::wasi_threads_variable().name) + ", not " + name);
      }
      if (value != "1" && value != "0") {
        throw DriverError(layer_.required_environment_location, "requires-env " + name + " must be \"1\" or \"0\", not \"" + value + "\"");
      }
    }
    if (!layer_.required_environment.empty() && !layer_.platform_default) {
      throw DriverError(layer_.required_environment_location, "requires-env only matters with \"platform-default\": true");
    }
  }

  bool has(const std::string& path) const { return leaves_.count(path) != 0; }

  const Leaf& leaf(const std::string& path) const {
    auto found = leaves_.find(path);
    if (found == leaves_.end()) {
      throw DriverError(layer_.name_location, "descriptor \"" + layer_.name + "\" sets no \"" + dotted(path) +
                                                  "\" (set it here or in a parent, or mark the descriptor \"abstract\": true)");
    }
    return found->second;
  }
  std::string string(const std::string& path) const { return leaf(path).value.get<std::string>(); }
  bool boolean(const std::string& path) const { return leaf(path).value.get<bool>(); }
  int integer(const std::string& path) const {
    // Clamped so that an absurd size still reaches the "must be 4 or 8" message intact.
    auto value = leaf(path).value.get<std::uint64_t>();
    return static_cast<int>(std::min<std::uint64_t>(value, 1u << 20));
  }
  std::vector<std::string> strings(const std::string& path) const {
    return leaf(path).value.get<std::vector<std::string>>();
  }
  std::vector<std::string> optional_strings(const std::string& path) const {
    return has(path) ? strings(path) : std::vector<std::string>{};
  }
  Location where_of(const std::string& path) const { return has(path) ? leaf(path).where : layer_.name_location; }
  std::string where(const std::string& path) const { return "set at " + where_of(path).to_string(); }

  // Two settings contradict each other: report at the one written later along the
  // inheritance chain (usually the user's), naming where the other one was set.
  [[noreturn]] void fail_at_later(const std::string& path_a, const std::string& what_a, const std::string& path_b,
                                  const std::string& what_b, const std::string& reason) const {
    auto rank = [&](const std::string& path) {
      auto file = std::find(files_.begin(), files_.end(), where_of(path).file);
      return file - files_.begin();
    };
    bool b_is_later = rank(path_b) > rank(path_a);
    const std::string& here = b_is_later ? path_b : path_a;
    const std::string& there = b_is_later ? path_a : path_b;
    fail(here, (b_is_later ? what_b : what_a) + " cannot be combined with " + (b_is_later ? what_a : what_b) + " (" +
                   where(there) + "): " + reason);
  }

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw DriverError(where_of(path), message);
  }

  const Layer& layer_;
  const LeafMap& leaves_;
  std::vector<std::string> files_;
};

// Reads at most one byte past the size limit: enough for the parser to refuse the file.
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DriverError(path + ": cannot read the target descriptor (does the file exist?)");
  std::string text(limits::kMaxDescriptorBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

nlohmann::json targets_to_json(const DescriptorSet& descriptors) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& target : descriptors.targets()) {
    list.push_back({{"name", target.spec.name},
                    {"variant", to_string(target.spec.variant)},
                    {"goos", target.spec.goos},
                    {"goarch", target.spec.goarch},
                    {"triple", target.spec.triple},
                    {"platform_default", target.platform_default},
                    {"requires_env", target.required_environment},
                    {"files", target.files}});
  }
  return list;
}

std::vector<std::string> descriptor_schema_keys() {
  std::vector<std::string> keys;
  for (const auto& field : schema()) keys.emplace_back(field.path);
  return keys;
}

struct DescriptorSet::Impl {
  std::map<std::string, Layer> layers;  // every loaded layer, abstract ones too, by name
  std::vector<TargetDescriptor> targets;

  struct Merged {
    LeafMap leaves;
    std::vector<std::string> files;
    std::size_t depth = 1;  // descriptors on the longest inheritance path, this one included
  };

  // What one load shares across its merges: where `inherits` paths may point, the layers
  // read from disk for them, and every layer's merged result, so that a parent reached
  // along many paths is merged once (without it, diamonds stacked n deep cost 2^n merges).
  struct Session {
    detail::ParentSearch search;
    std::map<std::string, Layer> extra;         // by normalized path
    std::map<const Layer*, Merged> merged;      // layers live in stable map nodes
  };

  // Merges `layer` with its ancestors. `chain` holds the descriptors being merged, to
  // report cycles and to bound the depth (and so this recursion).
  const Merged& merge(const Layer& layer, std::vector<std::string>& chain, Session& session) const {
    if (auto done = session.merged.find(&layer); done != session.merged.end()) return done->second;
    Merged merged;
    chain.push_back(layer.name);
    for (const auto& parent : layer.parents) {
      const Layer* parent_layer = find_parent(layer, parent, session);
      if (std::find(chain.begin(), chain.end(), parent_layer->name) != chain.end()) {
        throw DriverError(parent.where, "inheritance cycle: " + join(chain, " -> ") + " -> " + parent_layer->name);
      }
      // The chain bounds this recursion; the memoised depth covers paths merged before.
      if (chain.size() >= limits::kMaxInheritanceDepth) fail_too_deep(parent, chain.front());
      const Merged& inherited = merge(*parent_layer, chain, session);
      if (inherited.depth + 1 > limits::kMaxInheritanceDepth) fail_too_deep(parent, layer.name);
      merged.depth = std::max(merged.depth, inherited.depth + 1);
      merge_into(merged.leaves, inherited.leaves);
      for (const auto& file : inherited.files) {
        if (std::find(merged.files.begin(), merged.files.end(), file) == merged.files.end()) merged.files.push_back(file);
      }
    }
    chain.pop_back();
    merge_into(merged.leaves, layer.leaves);
    merged.files.push_back(layer.file_name);
    return session.merged.emplace(&layer, std::move(merged)).first->second;
  }

  [[noreturn]] static void fail_too_deep(const Parent& parent, const std::string& from) {
    throw DriverError(parent.where, "inheritance deeper than " + std::to_string(limits::kMaxInheritanceDepth) +
                                        " levels (the limit) from \"" + from + "\" through \"" + parent.reference + "\"");
  }

  const Layer* find_parent(const Layer& child, const Parent& parent, Session& session) const {
    const std::string& reference = parent.reference;
    if (detail::is_parent_path(reference)) {
      std::string key = detail::resolve_parent_path(child.file_name, reference, parent.where, session.search).string();
      auto found = session.extra.find(key);
      if (found != session.extra.end()) return &found->second;
      Layer loaded = LayerParser(DescriptorSource{key, read_file(key)}).parse();
      return &session.extra.emplace(key, std::move(loaded)).first->second;
    }
    auto found = layers.find(reference);
    if (found != layers.end()) return &found->second;
    for (const auto& [key, layer] : session.extra) {
      if (layer.name == reference) return &layer;
    }
    std::vector<std::string> names;
    for (const auto& [name, layer] : layers) names.push_back(name);
    throw DriverError(parent.where, "unknown parent \"" + reference + "\"" + did_you_mean(reference, names) +
                                        "; known descriptors: " + join(names));
  }

  TargetDescriptor concrete(const Layer& layer, Session& session) const {
    if (layer.is_abstract) {
      throw DriverError(layer.name_location, "descriptor \"" + layer.name +
                                                 "\" is abstract: inherit from it in a concrete descriptor instead of resolving it");
    }
    std::vector<std::string> chain;
    const Merged& merged = merge(layer, chain, session);
    return DescriptorChecker(layer, merged.leaves, merged.files).check();
  }
};

DescriptorSet DescriptorSet::load(const std::vector<DescriptorSource>& sources) {
  auto impl = std::make_shared<Impl>();
  for (const auto& source : sources) {
    Layer layer = LayerParser(source).parse();
    std::string stem = std::filesystem::path(source.file_name).stem().string();
    if (layer.name != stem) {
      throw DriverError(layer.name_location, "descriptor name \"" + layer.name + "\" must match its file name \"" + stem + "\"");
    }
    auto [existing, inserted] = impl->layers.emplace(layer.name, layer);
    if (!inserted) {
      throw DriverError(layer.name_location, "descriptor \"" + layer.name + "\" is also defined in " + existing->second.file_name);
    }
  }
  Impl::Session session;
  for (const auto& source : sources) {
    auto roots = detail::parent_search_for(source.file_name, {}).roots;
    session.search.roots.insert(session.search.roots.end(), roots.begin(), roots.end());
  }
  for (const auto& [name, layer] : impl->layers) {
    if (!layer.is_abstract) {
      impl->targets.push_back(impl->concrete(layer, session));
    } else {
      std::vector<std::string> chain;
      impl->merge(layer, chain, session);  // abstract layers must still merge cleanly
    }
  }
  // Plain GOOS/GOARCH must pick one descriptor, never two.
  for (std::size_t i = 0; i < impl->targets.size(); ++i) {
    for (std::size_t j = i + 1; j < impl->targets.size(); ++j) {
      const auto& a = impl->targets[i];
      const auto& b = impl->targets[j];
      if (a.platform_default && b.platform_default && a.spec.goos == b.spec.goos && a.spec.goarch == b.spec.goarch &&
          a.required_environment == b.required_environment) {
        throw DriverError(impl->layers.at(b.spec.name).name_location,
                          "descriptors \"" + a.spec.name + "\" and \"" + b.spec.name + "\" are both the platform default for " +
                              a.spec.goos + "/" + a.spec.goarch + " with the same requires-env");
      }
    }
  }
  DescriptorSet set;
  set.impl_ = std::move(impl);
  return set;
}

const TargetDescriptor* DescriptorSet::find(std::string_view name) const {
  for (const auto& target : impl_->targets) {
    if (target.spec.name == name) return &target;
  }
  return nullptr;
}

const std::vector<TargetDescriptor>& DescriptorSet::targets() const { return impl_->targets; }

std::vector<std::string> DescriptorSet::names() const {
  std::vector<std::string> names;
  for (const auto& target : impl_->targets) names.push_back(target.spec.name);
  return names;
}

TargetDescriptor DescriptorSet::load_file(const std::string& path, const std::vector<std::string>& search_path) const {
  return load_source(DescriptorSource{path, read_file(path)}, search_path);
}

TargetDescriptor DescriptorSet::load_source(const DescriptorSource& source,
                                            const std::vector<std::string>& search_path) const {
  Layer layer = LayerParser(source).parse();
  Impl::Session session{detail::parent_search_for(source.file_name, search_path), {}, {}};
  return impl_->concrete(layer, session);
}

}  // namespace llgo_wasm
