// Enum spellings and the JSON form of ResolvedTarget and Query (see target.hpp).
#include "llgo_wasm/target.hpp"

#include <algorithm>
#include <array>

#include <nlohmann/json.hpp>

#include "llgo_wasm/error.hpp"
#include "suggest.hpp"

namespace llgo_wasm {
namespace {

using nlohmann::json;

template <typename Enum, std::size_t N>
struct EnumTable {
  std::array<std::pair<Enum, std::string_view>, N> entries;

  std::string_view name(Enum value) const {
    for (const auto& [entry, spelling] : entries) {
      if (entry == value) return spelling;
    }
    return "?";
  }
  std::optional<Enum> parse(std::string_view spelling) const {
    for (const auto& [entry, text] : entries) {
      if (text == spelling) return entry;
    }
    return std::nullopt;
  }
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> out;
    for (const auto& entry : entries) out.push_back(entry.second);
    return out;
  }
};

constexpr EnumTable<Variant, 5> kVariants{{{{Variant::J32, "J32"},
                                             {Variant::J64, "J64"},
                                             {Variant::P1, "P1"},
                                             {Variant::P1T, "P1T"},
                                             {Variant::Native, "native"}}}};
constexpr EnumTable<AsyncifyMode, 3> kAsyncifyModes{{{{AsyncifyMode::None, "none"},
                                                      {AsyncifyMode::Emscripten, "emscripten"},
                                                      {AsyncifyMode::PostLink, "post-link"}}}};
constexpr EnumTable<ExceptionModel, 5> kExceptionModels{{{{ExceptionModel::None, "none"},
                                                          {ExceptionModel::Legacy, "legacy"},
                                                          {ExceptionModel::Exnref, "exnref"},
                                                          {ExceptionModel::Emscripten, "emscripten"},
                                                          {ExceptionModel::Host, "host"}}}};
constexpr EnumTable<ContextBackend, 4> kContexts{{{{ContextBackend::Asyncify, "asyncify"},
                                                   {ContextBackend::EmscriptenFiber, "emscripten-fiber"},
                                                   {ContextBackend::Pthread, "pthread"},
                                                   {ContextBackend::Ucontext, "ucontext"}}}};
constexpr EnumTable<Runner, 4> kRunners{{{{Runner::Node, "node"},
                                          {Runner::Wasi, "wasi"},
                                          {Runner::WasiThreads, "wasi-threads"},
                                          {Runner::Native, "native"}}}};
constexpr EnumTable<Origin, 4> kOrigins{{{{Origin::Target, "target"},
                                          {Origin::Flag, "flag"},
                                          {Origin::Environment, "environment"},
                                          {Origin::Host, "host"}}}};

// Reads a required member of a JSON object with a clear error naming its path.
class JsonReader {
 public:
  JsonReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) throw DriverError(where() + " must be a JSON object");
  }

  const json& member(const char* key) const {
    auto found = object_.find(key);
    if (found == object_.end()) throw DriverError(where() + " has no \"" + key + "\"");
    return *found;
  }
  JsonReader object(const char* key) const { return JsonReader(member(key), child(key)); }

  std::string string(const char* key) const {
    const json& value = member(key);
    if (!value.is_string()) throw DriverError(child(key) + " must be a string");
    return value.get<std::string>();
  }
  bool boolean(const char* key) const {
    const json& value = member(key);
    if (!value.is_boolean()) throw DriverError(child(key) + " must be true or false");
    return value.get<bool>();
  }
  std::uint64_t unsigned_integer(const char* key) const {
    const json& value = member(key);
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
      throw DriverError(child(key) + " must be a non-negative integer");
    }
    return value.get<std::uint64_t>();
  }
  std::vector<std::string> strings(const char* key) const {
    const json& value = member(key);
    std::vector<std::string> out;
    if (!value.is_array()) throw DriverError(child(key) + " must be a list of strings");
    for (const auto& item : value) {
      if (!item.is_string()) throw DriverError(child(key) + " must be a list of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  std::map<std::string, std::string> string_map(const char* key) const {
    const json& value = member(key);
    std::map<std::string, std::string> out;
    if (!value.is_object()) throw DriverError(child(key) + " must be an object of strings");
    for (const auto& [name, item] : value.items()) {
      if (!item.is_string()) throw DriverError(child(key) + "." + name + " must be a string");
      out[name] = item.get<std::string>();
    }
    return out;
  }
  template <typename Enum, std::size_t N>
  Enum enumerated(const char* key, const EnumTable<Enum, N>& table) const {
    std::string spelling = string(key);
    auto parsed = table.parse(spelling);
    if (!parsed) {
      std::vector<std::string> names;
      for (auto name : table.names()) names.emplace_back(name);
      throw DriverError(child(key) + " is \"" + spelling + "\"; expected one of " + detail::join(names));
    }
    return *parsed;
  }

 private:
  std::string where() const { return path_.empty() ? "the resolved target" : path_; }
  std::string child(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  const json& object_;
  std::string path_;
};

}  // namespace

std::string_view to_string(Variant v) { return kVariants.name(v); }
std::string_view to_string(AsyncifyMode v) { return kAsyncifyModes.name(v); }
std::string_view to_string(ExceptionModel v) { return kExceptionModels.name(v); }
std::string_view to_string(ContextBackend v) { return kContexts.name(v); }
std::string_view to_string(Runner v) { return kRunners.name(v); }
std::string_view to_string(Origin v) { return kOrigins.name(v); }
std::optional<Variant> parse_variant(std::string_view s) { return kVariants.parse(s); }
std::optional<AsyncifyMode> parse_asyncify_mode(std::string_view s) { return kAsyncifyModes.parse(s); }
std::optional<ExceptionModel> parse_exception_model(std::string_view s) { return kExceptionModels.parse(s); }
std::optional<ContextBackend> parse_context_backend(std::string_view s) { return kContexts.parse(s); }
std::optional<Runner> parse_runner(std::string_view s) { return kRunners.parse(s); }
std::optional<Origin> parse_origin(std::string_view s) { return kOrigins.parse(s); }

const std::vector<std::string_view>& variant_names() {
  static const auto names = kVariants.names();
  return names;
}
const std::vector<std::string_view>& asyncify_mode_names() {
  static const auto names = kAsyncifyModes.names();
  return names;
}
const std::vector<std::string_view>& exception_model_names() {
  static const auto names = kExceptionModels.names();
  return names;
}
const std::vector<std::string_view>& context_backend_names() {
  static const auto names = kContexts.names();
  return names;
}
const std::vector<std::string_view>& runner_names() {
  static const auto names = kRunners.names();
  return names;
}

std::string context_build_tag(ContextBackend context) {
  std::string tag = "llgo.context_";
  for (char c : to_string(context)) tag += c == '-' ? '_' : c;
  return tag;
}

json target_to_json(const ResolvedTarget& target) {
  const TargetSpec& spec = target.spec;
  json supported = json::array();
  for (auto context : spec.capabilities.supported_contexts) supported.push_back(to_string(context));
  return json{
      {"format_version", 1},
      {"name", spec.name},
      {"variant", to_string(spec.variant)},
      {"goos", spec.goos},
      {"goarch", spec.goarch},
      {"implied", {{"goos", target.implied_goos()}, {"goarch", target.implied_goarch()}}},
      {"origin", {{"goos", to_string(target.goos_origin)}, {"goarch", to_string(target.goarch_origin)}}},
      {"triple", spec.triple},
      {"data_model",
       {{"pointer", spec.data_model.pointer},
        {"long", spec.data_model.long_size},
        {"ssize_t", spec.data_model.ssize_t_size}}},
      {"capabilities",
       {{"asyncify", to_string(spec.capabilities.asyncify)},
        {"memory64", spec.capabilities.memory64},
        {"eh", {{"compile", to_string(spec.capabilities.eh.compile)}, {"final", to_string(spec.capabilities.eh.final)}}},
        {"threads", spec.capabilities.threads},
        {"context", to_string(spec.capabilities.context)},
        {"supported_contexts", supported}}},
      {"build_tags", spec.build_tags},
      {"cflags", spec.cflags},
      {"ldflags", spec.ldflags},
      {"environments", spec.environments},
      {"default_stack_size", spec.default_stack_size},
      {"output",
       {{"default_extension", spec.output.default_extension},
        {"accepted_extensions", spec.output.accepted_extensions}}},
      {"runner", to_string(spec.runner)},
      {"environment", target.environment},
      {"overridden_environment", target.overridden_environment},
      {"descriptor_files", target.descriptor_files},
  };
}

ResolvedTarget target_from_json(const json& value) {
  JsonReader root(value, "");
  if (root.unsigned_integer("format_version") != 1) {
    throw DriverError("format_version " + root.member("format_version").dump() +
                      " is not supported; this driver reads version 1");
  }
  JsonReader capabilities = root.object("capabilities");
  JsonReader eh = capabilities.object("eh");
  JsonReader data_model = root.object("data_model");
  JsonReader output = root.object("output");
  JsonReader origin = root.object("origin");

  std::vector<ContextBackend> supported;
  for (const auto& name : capabilities.strings("supported_contexts")) {
    auto parsed = kContexts.parse(name);
    if (!parsed) throw DriverError("capabilities.supported_contexts has unknown context \"" + name + "\"");
    supported.push_back(*parsed);
  }
  auto int_of = [](const JsonReader& reader, const char* key) {
    return static_cast<int>(reader.unsigned_integer(key));
  };

  TargetSpec spec{
      .name = root.string("name"),
      .variant = root.enumerated("variant", kVariants),
      .goos = root.string("goos"),
      .goarch = root.string("goarch"),
      .triple = root.string("triple"),
      .data_model = {int_of(data_model, "pointer"), int_of(data_model, "long"), int_of(data_model, "ssize_t")},
      .capabilities =
          {
              .asyncify = capabilities.enumerated("asyncify", kAsyncifyModes),
              .memory64 = capabilities.boolean("memory64"),
              .eh = {eh.enumerated("compile", kExceptionModels), eh.enumerated("final", kExceptionModels)},
              .threads = capabilities.boolean("threads"),
              .context = capabilities.enumerated("context", kContexts),
              .supported_contexts = supported,
          },
      .build_tags = root.strings("build_tags"),
      .cflags = root.strings("cflags"),
      .ldflags = root.strings("ldflags"),
      .environments = root.strings("environments"),
      .default_stack_size = root.unsigned_integer("default_stack_size"),
      .output = {output.string("default_extension"), output.strings("accepted_extensions")},
      .runner = root.enumerated("runner", kRunners),
  };
  return ResolvedTarget{
      .spec = std::move(spec),
      .goos_origin = origin.enumerated("goos", kOrigins),
      .goarch_origin = origin.enumerated("goarch", kOrigins),
      .environment = root.string_map("environment"),
      .overridden_environment = root.string_map("overridden_environment"),
      .descriptor_files = root.strings("descriptor_files"),
  };
}

Query query_from_json(const json& value) {
  if (!value.is_object()) throw DriverError("the query must be a JSON object");
  static const std::vector<std::string> kKeys = {"target", "goos", "goarch", "context", "env", "descriptor_path"};
  Query query;
  for (const auto& [key, member] : value.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      throw DriverError("the query has unknown key \"" + key + "\"" + detail::did_you_mean(key, kKeys) +
                        "; known keys: " + detail::join(kKeys));
    }
    if (key == "env") {
      if (!member.is_object()) throw DriverError("query.env must be an object of strings");
      for (const auto& [name, setting] : member.items()) {
        if (!setting.is_string()) throw DriverError("query.env." + name + " must be a string");
        query.environment[name] = setting.get<std::string>();
      }
      continue;
    }
    if (key == "descriptor_path") {
      if (!member.is_array()) throw DriverError("query.descriptor_path must be a list of directories");
      for (const auto& directory : member) {
        if (!directory.is_string()) throw DriverError("query.descriptor_path must be a list of directories");
        query.descriptor_search_path.push_back(directory.get<std::string>());
      }
      continue;
    }
    if (member.is_null()) continue;
    if (!member.is_string()) throw DriverError("query." + key + " must be a string or null");
    std::string text = member.get<std::string>();
    if (key == "target") query.target = text;
    if (key == "goos") query.goos = text;
    if (key == "goarch") query.goarch = text;
    if (key == "context") query.context = text;
  }
  return query;
}

}  // namespace llgo_wasm
