// The JSON form of a TargetSpec and a ResolvedTarget (see target.hpp): the one mapping
// between targets/schema.json's keys and the C++ structs. Descriptors are read through
// spec_from_json too, after the loader has checked their keys and types against the schema.
#include "llgo_wasm/target.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/target_capabilities.hpp"

namespace llgo_wasm {
namespace {

using nlohmann::json;

std::string joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (auto name : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

// Reads members of a JSON object; errors name the member by its dotted path.
class JsonReader {
 public:
  JsonReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) throw DriverError(where() + " must be a JSON object");
  }

  const json* find(const char* key) const {
    auto found = object_.find(key);
    return found == object_.end() ? nullptr : &*found;
  }
  const json& member(const char* key) const {
    if (const json* value = find(key)) return *value;
    throw MissingFieldError(child(key), where() + " has no \"" + key + "\"");
  }
  JsonReader object(const char* key) const { return JsonReader(member(key), child(key)); }
  // An object that may be absent (its members are then absent too).
  JsonReader optional_object(const char* key) const {
    static const json kEmpty = json::object();
    const json* value = find(key);
    return JsonReader(value ? *value : kEmpty, child(key));
  }

  std::string string(const char* key) const { return string_value(member(key), child(key)); }
  bool boolean(const char* key) const {
    const json& value = member(key);
    if (!value.is_boolean()) throw DriverError(child(key) + " must be true or false");
    return value.get<bool>();
  }
  bool optional_boolean(const char* key) const { return find(key) && boolean(key); }
  std::uint64_t unsigned_integer(const char* key) const {
    const json& value = member(key);
    // Every uint64 (2^64 - 1 read as an int64 is -1): the rules then judge its size, with a position.
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
      throw DriverError(child(key) + " must be a non-negative integer");
    }
    return value.get<std::uint64_t>();
  }
  int small_integer(const char* key) const {
    // Clamped so that an absurd size still reaches the loader's "must be 4 or 8" rule intact.
    return static_cast<int>(std::min<std::uint64_t>(unsigned_integer(key), 1u << 20));
  }
  std::vector<std::string> strings(const char* key) const { return string_list(member(key), child(key)); }
  std::vector<std::string> optional_strings(const char* key) const {
    return find(key) ? strings(key) : std::vector<std::string>{};
  }
  std::string optional_string(const char* key) const { return find(key) ? string(key) : std::string(); }
  std::map<std::string, std::string> optional_string_map(const char* key) const {
    std::map<std::string, std::string> out;
    const json* value = find(key);
    if (!value) return out;
    if (!value->is_object()) throw DriverError(child(key) + " must be an object of strings");
    for (const auto& [name, item] : value->items()) out[name] = string_value(item, child(key) + "." + name);
    return out;
  }
  template <typename Parse>
  auto enumerated(const char* key, Parse parse, const std::vector<std::string_view>& names) const {
    return enum_value(member(key), child(key), parse, names);
  }
  // Each member of an object-valued key, by name, with its path.
  template <typename Visit>
  void each_member(const char* key, Visit visit) const {
    const json* value = find(key);
    if (!value) return;
    if (!value->is_object()) throw DriverError(child(key) + " must be an object");
    for (const auto& [name, item] : value->items()) visit(name, item, child(key) + "." + name);
  }

  static std::string string_value(const json& value, const std::string& path) {
    if (!value.is_string()) throw DriverError(path + " must be a string");
    return value.get<std::string>();
  }
  static std::vector<std::string> string_list(const json& value, const std::string& path) {
    if (!value.is_array()) throw DriverError(path + " must be a list of strings");
    std::vector<std::string> out;
    for (const auto& item : value) out.push_back(string_value(item, path + " item"));
    return out;
  }
  template <typename Parse>
  static auto enum_value(const json& value, const std::string& path, Parse parse, const std::vector<std::string_view>& names) {
    std::string spelling = string_value(value, path);
    auto parsed = parse(spelling);
    if (!parsed) throw DriverError(path + " is \"" + spelling + "\"; expected one of " + joined(names));
    return *parsed;
  }

 private:
  std::string where() const { return path_.empty() ? "the target" : path_; }
  std::string child(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  const json& object_;
  std::string path_;
};

json origin_pair(Origin goos, Origin goarch) { return {{"goos", to_string(goos)}, {"goarch", to_string(goarch)}}; }

}  // namespace

json spec_to_json(const TargetSpec& spec) {
  const Capabilities& caps = spec.capabilities;
  json supported = json::array();
  for (const auto& context : caps.supported_contexts) supported.push_back(context);
  json supported_stacks = json::array();
  for (auto mode : caps.supported_stacks) supported_stacks.push_back(to_string(mode));
  json context_ldflags = json::object();
  for (const auto& [context, flags] : spec.context_ldflags) context_ldflags[context] = flags;
  json context_removelist = json::object();
  for (const auto& [context, names] : spec.context_asyncify_removelist) context_removelist[context] = names;
  json context_merge = json::object();
  for (const auto& [context, merge] : spec.context_merge) {
    json modules = json::object();
    for (const auto& module : merge.modules) modules[module.name] = module.source;
    context_merge[context] = {{"modules", modules}, {"internal-exports", merge.internal_exports}, {"features", merge.features}};
  }
  json engines = json::object();
  for (const auto& [name, engine] : spec.engines) {
    engines[name] = {{"command", engine.command},     {"extension", engine.extension}, {"optional", engine.optional},
                     {"sampled", engine.sampled},     {"every-case", engine.every_case},
                     {"provides", engine.provides},   {"labels", engine.labels}};
    // Optional in descriptors: written only when set, so the form loads back through the schema.
    if (!engine.minimum_version.empty()) engines[name]["minimum-version"] = engine.minimum_version;
  }
  json document{
      {"name", spec.name},
      {"variant", spec.variant},
      {"goos", spec.goos},
      {"goarch", spec.goarch},
      {"triple", spec.triple},
      {"data-model",
       {{"pointer", spec.data_model.pointer}, {"long", spec.data_model.long_size}, {"ssize_t", spec.data_model.ssize_t_size}}},
      {"capabilities",
       {{"asyncify", to_string(caps.asyncify)},
        {"memory64", caps.memory64},
        {"threads", caps.threads},
        {"stack-switching", caps.stack_switching},
        {"eh", {{"compile", to_string(caps.eh.compile)}, {"final", to_string(caps.eh.final)}}},
        {"context", {{"default", caps.context}, {"supported", supported}}},
        {"stacks", {{"default", to_string(caps.stacks)}, {"supported", supported_stacks}}}}},
      {"build-tags", spec.build_tags},
      {"cflags", spec.cflags},
      {"ldflags", spec.ldflags},
      {"context-ldflags", context_ldflags},
      {"context-merge", context_merge},
      {"environments", spec.environments},
      {"asyncify-imports", spec.asyncify_imports},
      {"asyncify-removelist", spec.asyncify_removelist},
      {"context-asyncify-removelist", context_removelist},
      {"default-stack-size", spec.default_stack_size},
      {"separate-stack-size", spec.separate_stack_size},
      {"output",
       {{"default-extension", spec.output.default_extension}, {"accepted-extensions", spec.output.accepted_extensions}}},
      {"run-engines", spec.run_engines},
      {"engines", engines},
  };
  // Absent means no cap (the loader takes only positive integers there).
  if (spec.max_goroutines > 0) document["max-goroutines"] = spec.max_goroutines;
  // Optional in descriptors: written only when set, so the form loads back through the schema.
  if (!spec.link_optimization.empty()) document["link-optimization"] = spec.link_optimization;
  return document;
}

TargetSpec spec_from_json(const json& value) {
  // Read in the schema's order, so a descriptor missing several keys hears about the first.
  JsonReader root(value, "");
  TargetSpec spec;
  spec.name = root.string("name");
  spec.variant = root.string("variant");
  spec.goos = root.string("goos");
  spec.goarch = root.string("goarch");
  spec.triple = root.string("triple");
  JsonReader data_model = root.object("data-model");
  spec.data_model = {data_model.small_integer("pointer"), data_model.small_integer("long"),
                     data_model.small_integer("ssize_t")};

  JsonReader capabilities = root.object("capabilities");
  Capabilities& caps = spec.capabilities;
  caps.asyncify = capabilities.enumerated("asyncify", parse_asyncify_mode, asyncify_mode_names());
  caps.memory64 = capabilities.boolean("memory64");
  caps.threads = capabilities.boolean("threads");
  caps.stack_switching = capabilities.optional_boolean("stack-switching");
  JsonReader eh = capabilities.object("eh");
  caps.eh = {eh.enumerated("compile", parse_exception_model, exception_model_names()),
             eh.enumerated("final", parse_exception_model, exception_model_names())};
  JsonReader context = capabilities.object("context");
  caps.context = context.string("default");
  caps.supported_contexts = context.strings("supported");
  // Optional: a target that says nothing runs goroutines on separate stacks, right for any C code.
  JsonReader stacks = capabilities.optional_object("stacks");
  if (stacks.find("default")) caps.stacks = stacks.enumerated("default", parse_stack_mode, stack_mode_names());
  caps.supported_stacks.clear();
  for (const auto& name : stacks.optional_strings("supported")) {
    caps.supported_stacks.push_back(JsonReader::enum_value(name, "capabilities.stacks.supported item", parse_stack_mode,
                                                           stack_mode_names()));
  }
  if (caps.supported_stacks.empty()) caps.supported_stacks.push_back(caps.stacks);

  spec.build_tags = root.optional_strings("build-tags");
  spec.cflags = root.optional_strings("cflags");
  spec.ldflags = root.optional_strings("ldflags");
  root.each_member("context-ldflags", [&](const std::string& name, const json& flags, const std::string& path) {
    spec.context_ldflags[name] = JsonReader::string_list(flags, path);
  });
  root.each_member("context-merge", [&](const std::string& name, const json& merge, const std::string& path) {
    JsonReader reader(merge, path);
    ProgramMerge& out = spec.context_merge[name];
    // Merged in the order the descriptor writes them (nlohmann::json keeps keys sorted, so
    // the order is by name: write names that sort in merge order).
    for (const auto& [module, source] : reader.optional_string_map("modules")) out.modules.push_back({module, source});
    out.internal_exports = reader.optional_strings("internal-exports");
    out.features = reader.optional_strings("features");
  });
  spec.environments = root.optional_strings("environments");
  spec.asyncify_imports = root.optional_strings("asyncify-imports");
  spec.asyncify_removelist = root.optional_strings("asyncify-removelist");
  root.each_member("context-asyncify-removelist", [&](const std::string& name, const json& names, const std::string& path) {
    spec.context_asyncify_removelist[name] = JsonReader::string_list(names, path);
  });
  spec.default_stack_size = root.unsigned_integer("default-stack-size");
  spec.separate_stack_size =
      root.find("separate-stack-size") ? root.unsigned_integer("separate-stack-size") : spec.default_stack_size;
  if (root.find("max-goroutines")) spec.max_goroutines = root.unsigned_integer("max-goroutines");
  spec.link_optimization = root.optional_string("link-optimization");
  JsonReader output = root.object("output");
  spec.output = {output.string("default-extension"), output.optional_strings("accepted-extensions")};
  spec.run_engines = root.optional_strings("run-engines");
  root.each_member("engines", [&](const std::string& name, const json& engine, const std::string& path) {
    JsonReader reader(engine, path);
    spec.engines[name] = Engine{reader.strings("command"),          reader.optional_string("extension"),
                                reader.optional_boolean("optional"), reader.optional_boolean("sampled"),
                                reader.optional_boolean("every-case"), reader.optional_string("minimum-version"),
                                reader.optional_strings("provides"), reader.optional_strings("labels")};
  });
  return spec;
}

json target_to_json(const ResolvedTarget& target) {
  json document = spec_to_json(target.spec);
  EffectiveFlags effective = effective_flags(target.spec);
  document["format-version"] = kResolvedTargetFormatVersion;
  document["implied"] = {{"goos", target.implied_goos()}, {"goarch", target.implied_goarch()}};
  document["origin"] = origin_pair(target.goos_origin, target.goarch_origin);
  document["environment"] = target.environment;
  document["overridden-environment"] = target.overridden_environment;
  document["descriptor-files"] = target.descriptor_files;
  document["effective"] = {{"build-tags", effective.build_tags},
                           {"cflags", effective.cflags},
                           {"ldflags", effective.ldflags},
                           {"capabilities", target_capabilities(target.spec)}};
  return document;
}

ResolvedTarget target_from_json(const json& value) {
  JsonReader root(value, "");
  if (root.unsigned_integer("format-version") != static_cast<std::uint64_t>(kResolvedTargetFormatVersion)) {
    throw DriverError("format-version " + root.member("format-version").dump() + " is not supported; this driver reads version " +
                      std::to_string(kResolvedTargetFormatVersion));
  }
  JsonReader origin = root.object("origin");
  return ResolvedTarget{
      .spec = spec_from_json(value),
      .goos_origin = origin.enumerated("goos", parse_origin, origin_names()),
      .goarch_origin = origin.enumerated("goarch", parse_origin, origin_names()),
      .environment = root.optional_string_map("environment"),
      .overridden_environment = root.optional_string_map("overridden-environment"),
      .descriptor_files = root.strings("descriptor-files"),
  };
}

}  // namespace llgo_wasm
