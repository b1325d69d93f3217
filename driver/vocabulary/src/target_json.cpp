// The JSON form of a TargetSpec and a ResolvedTarget (see target.hpp): the one declaration of
// its fields (target_fields.hpp), a table each of whose entries names a key, its kind and merge
// rule, and how the key is read into and written from the C++ structs. spec_from_json,
// spec_to_json, target_from_json and target_to_json walk it; targets/schema.json and
// docs/targets.md are checked against it (tests/driver/target_fields_test.cpp). Descriptors are
// read through spec_from_json too, after the loader has checked their keys and types against
// the schema.
#include "llgo_wasm/target.hpp"
#include "llgo_wasm/target_fields.hpp"

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

// One field of the JSON form, read from its parent object into an Out and written from an In.
// A field without `read` is not read here: the loader reads the identity keys and `host`,
// resolution recomputes the records it writes. An Object without read or write of its own is
// walked into: its members are read from, and written into, the object at `key`.
template <typename Out, typename In = Out>
struct Field {
  const char* key;
  FieldKind kind;
  MergeRule merge = MergeRule::Inherited;
  void (*read)(const JsonReader& parent, const char* key, Out& out) = nullptr;
  // May write nothing: an optional key that is unset, so the form loads back through the schema.
  void (*write)(const In& in, json& parent, const char* key) = nullptr;
  std::vector<Field> members = {};  // Object: its keys
  bool optional = false;            // Object: may be absent (its members are then absent too)
  // ObjectMap: appends the fields of each member (read and written by `read` and `write`).
  void (*member_fields)(const std::string& prefix, std::vector<TargetField>& out) = nullptr;
};

template <typename Out, typename In>
bool reads_anything(const Field<Out, In>& field) {
  return field.read || std::any_of(field.members.begin(), field.members.end(), [](const auto& m) { return reads_anything(m); });
}
template <typename Out, typename In>
bool writes_anything(const Field<Out, In>& field) {
  return field.write || std::any_of(field.members.begin(), field.members.end(), [](const auto& m) { return writes_anything(m); });
}

template <typename Out, typename In>
void read_fields(const std::vector<Field<Out, In>>& fields, const JsonReader& parent, Out& out) {
  for (const auto& field : fields) {
    if (field.read) {
      field.read(parent, field.key, out);
    } else if (field.kind == FieldKind::Object && reads_anything(field)) {
      read_fields(field.members, field.optional ? parent.optional_object(field.key) : parent.object(field.key), out);
    }
  }
}

template <typename Out, typename In>
void write_fields(const std::vector<Field<Out, In>>& fields, const In& in, json& parent) {
  for (const auto& field : fields) {
    if (field.write) {
      field.write(in, parent, field.key);
    } else if (field.kind == FieldKind::Object && writes_anything(field)) {
      json object = json::object();
      write_fields(field.members, in, object);
      parent[field.key] = std::move(object);
    }
  }
}

template <typename Out, typename In>
void append_fields(const std::vector<Field<Out, In>>& fields, const std::string& prefix, std::vector<TargetField>& out) {
  for (const auto& field : fields) {
    std::string path = prefix.empty() ? field.key : prefix + "/" + field.key;
    out.push_back({path, field.kind, field.merge});
    append_fields(field.members, path, out);
    if (field.member_fields) field.member_fields(path + "/*", out);
  }
}

// engines/*: how to run a program under one engine.
const std::vector<Field<Engine>>& engine_fields() {
  static const std::vector<Field<Engine>> fields{
      {.key = "command", .kind = FieldKind::StringList, .merge = MergeRule::Replaced,
       .read = [](const auto& r, auto key, auto& e) { e.command = r.strings(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.command; }},
      {.key = "extension", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& e) { e.extension = r.optional_string(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.extension; }},
      {.key = "optional", .kind = FieldKind::Boolean,
       .read = [](const auto& r, auto key, auto& e) { e.optional = r.optional_boolean(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.optional; }},
      {.key = "sampled", .kind = FieldKind::Boolean,
       .read = [](const auto& r, auto key, auto& e) { e.sampled = r.optional_boolean(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.sampled; }},
      {.key = "every-case", .kind = FieldKind::Boolean,
       .read = [](const auto& r, auto key, auto& e) { e.every_case = r.optional_boolean(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.every_case; }},
      {.key = "minimum-version", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& e) { e.minimum_version = r.optional_string(key); },
       .write = [](const auto& e, auto& j, auto key) { if (!e.minimum_version.empty()) j[key] = e.minimum_version; }},
      {.key = "provides", .kind = FieldKind::StringList, .merge = MergeRule::Replaced,
       .read = [](const auto& r, auto key, auto& e) { e.provides = r.optional_strings(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.provides; }},
      {.key = "labels", .kind = FieldKind::StringList, .merge = MergeRule::Replaced,
       .read = [](const auto& r, auto key, auto& e) { e.labels = r.optional_strings(key); },
       .write = [](const auto& e, auto& j, auto key) { j[key] = e.labels; }},
      {.key = "contexts", .kind = FieldKind::StringList, .merge = MergeRule::Replaced,
       .read = [](const auto& r, auto key, auto& e) { e.contexts = r.optional_strings(key); },
       .write = [](const auto& e, auto& j, auto key) { if (!e.contexts.empty()) j[key] = e.contexts; }},
  };
  return fields;
}

// context-merge/*: the modules one context backend merges into executables.
const std::vector<Field<ProgramMerge>>& merge_fields() {
  static const std::vector<Field<ProgramMerge>> fields{
      // Merged in the order the descriptor writes them (nlohmann::json keeps keys sorted, so
      // the order is by name: write names that sort in merge order).
      {.key = "modules", .kind = FieldKind::StringMap,
       .read = [](const auto& r, auto key, auto& m) {
         for (const auto& [name, source] : r.optional_string_map(key)) m.modules.push_back({name, source});
       },
       .write = [](const auto& m, auto& j, auto key) {
         json modules = json::object();
         for (const auto& module : m.modules) modules[module.name] = module.source;
         j[key] = modules;
       }},
      {.key = "internal-exports", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& m) { m.internal_exports = r.optional_strings(key); },
       .write = [](const auto& m, auto& j, auto key) { j[key] = m.internal_exports; }},
      {.key = "features", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& m) { m.features = r.optional_strings(key); },
       .write = [](const auto& m, auto& j, auto key) { j[key] = m.features; }},
  };
  return fields;
}

// context-eh/*: the exception-handling models one context backend's programs use.
const std::vector<Field<ExceptionModels>>& eh_fields() {
  static const std::vector<Field<ExceptionModels>> fields{
      {.key = "compile", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& eh) { eh.compile = r.enumerated(key, parse_exception_model, exception_model_names()); },
       .write = [](const auto& eh, auto& j, auto key) { j[key] = to_string(eh.compile); }},
      {.key = "final", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& eh) { eh.final = r.enumerated(key, parse_exception_model, exception_model_names()); },
       .write = [](const auto& eh, auto& j, auto key) { j[key] = to_string(eh.final); }},
  };
  return fields;
}

// {context: [strings]} maps.
using StringListMap = std::map<std::string, std::vector<std::string>>;
void read_string_list_map(const JsonReader& r, const char* key, StringListMap& out) {
  r.each_member(key, [&](const std::string& name, const json& list, const std::string& path) {
    out[name] = JsonReader::string_list(list, path);
  });
}
void write_string_list_map(const StringListMap& map, json& parent, const char* key) {
  json object = json::object();
  for (const auto& [name, list] : map) object[name] = list;
  parent[key] = object;
}

// A per-context map of records (context-eh, context-merge): {"<context>": {<the record's
// fields>}}, each record read, written and listed through its own field table.
template <auto Member, auto Fields>
Field<TargetSpec> context_records(const char* key) {
  return {.key = key, .kind = FieldKind::ObjectMap,
          .read = [](const JsonReader& r, const char* k, TargetSpec& s) {
            r.each_member(k, [&](const std::string& name, const json& record, const std::string& path) {
              read_fields(Fields(), JsonReader(record, path), (s.*Member)[name]);
            });
          },
          .write = [](const TargetSpec& s, json& j, const char* k) {
            json records = json::object();
            for (const auto& [context, record] : s.*Member) write_fields(Fields(), record, records[context]);
            j[k] = records;
          },
          .member_fields = [](const std::string& prefix, std::vector<TargetField>& out) {
            append_fields(Fields(), prefix, out);
          }};
}

// The descriptor keys, in the schema's order: a descriptor missing several keys hears about the first.
const std::vector<Field<TargetSpec>>& spec_fields() {
  static const std::vector<Field<TargetSpec>> fields{
      {.key = "name", .kind = FieldKind::String, .merge = MergeRule::Identity,
       .read = [](const auto& r, auto key, auto& s) { s.name = r.string(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.name; }},
      // Read by the loader (descriptor_layer, descriptor_merge, descriptor_set), not kept in a spec.
      {.key = "inherits", .kind = FieldKind::NameOrNames, .merge = MergeRule::Identity},
      {.key = "abstract", .kind = FieldKind::Boolean, .merge = MergeRule::Identity},
      {.key = "platform-default", .kind = FieldKind::Boolean, .merge = MergeRule::Identity},
      {.key = "requires-env", .kind = FieldKind::StringMap, .merge = MergeRule::Identity},
      {.key = "variant", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& s) { s.variant = r.string(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.variant; }},
      // Read by the loader, which puts the driver's own platform in goos, goarch, triple and data-model.
      {.key = "host", .kind = FieldKind::Boolean},
      {.key = "goos", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& s) { s.goos = r.string(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.goos; }},
      {.key = "goarch", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& s) { s.goarch = r.string(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.goarch; }},
      {.key = "triple", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& s) { s.triple = r.string(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.triple; }},
      {.key = "data-model", .kind = FieldKind::Object, .members = {
           {.key = "pointer", .kind = FieldKind::Integer,
            .read = [](const auto& r, auto key, auto& s) { s.data_model.pointer = r.small_integer(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.data_model.pointer; }},
           {.key = "long", .kind = FieldKind::Integer,
            .read = [](const auto& r, auto key, auto& s) { s.data_model.long_size = r.small_integer(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.data_model.long_size; }},
           {.key = "ssize_t", .kind = FieldKind::Integer,
            .read = [](const auto& r, auto key, auto& s) { s.data_model.ssize_t_size = r.small_integer(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.data_model.ssize_t_size; }},
       }},
      {.key = "capabilities", .kind = FieldKind::Object, .members = {
           {.key = "asyncify", .kind = FieldKind::String,
            .read = [](const auto& r, auto key, auto& s) {
              s.capabilities.asyncify = r.enumerated(key, parse_asyncify_mode, asyncify_mode_names());
            },
            .write = [](const auto& s, auto& j, auto key) { j[key] = to_string(s.capabilities.asyncify); }},
           {.key = "memory64", .kind = FieldKind::Boolean,
            .read = [](const auto& r, auto key, auto& s) { s.capabilities.memory64 = r.boolean(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.capabilities.memory64; }},
           {.key = "threads", .kind = FieldKind::Boolean,
            .read = [](const auto& r, auto key, auto& s) { s.capabilities.threads = r.boolean(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.capabilities.threads; }},
           {.key = "stack-switching", .kind = FieldKind::Boolean,
            .read = [](const auto& r, auto key, auto& s) { s.capabilities.stack_switching = r.optional_boolean(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.capabilities.stack_switching; }},
           {.key = "eh", .kind = FieldKind::Object, .members = {
                {.key = "compile", .kind = FieldKind::String,
                 .read = [](const auto& r, auto key, auto& s) {
                   s.capabilities.eh.compile = r.enumerated(key, parse_exception_model, exception_model_names());
                 },
                 .write = [](const auto& s, auto& j, auto key) { j[key] = to_string(s.capabilities.eh.compile); }},
                {.key = "final", .kind = FieldKind::String,
                 .read = [](const auto& r, auto key, auto& s) {
                   s.capabilities.eh.final = r.enumerated(key, parse_exception_model, exception_model_names());
                 },
                 .write = [](const auto& s, auto& j, auto key) { j[key] = to_string(s.capabilities.eh.final); }},
            }},
           {.key = "context", .kind = FieldKind::Object, .members = {
                {.key = "default", .kind = FieldKind::String,
                 .read = [](const auto& r, auto key, auto& s) { s.capabilities.context = r.string(key); },
                 .write = [](const auto& s, auto& j, auto key) { j[key] = s.capabilities.context; }},
                {.key = "supported", .kind = FieldKind::StringList,
                 .read = [](const auto& r, auto key, auto& s) { s.capabilities.supported_contexts = r.strings(key); },
                 .write = [](const auto& s, auto& j, auto key) { j[key] = s.capabilities.supported_contexts; }},
            }},
           // Optional: a target that says nothing runs goroutines on separate stacks, right for any C code.
           {.key = "stacks", .kind = FieldKind::Object, .members = {
                {.key = "default", .kind = FieldKind::String,
                 .read = [](const auto& r, auto key, auto& s) {
                   if (r.find(key)) s.capabilities.stacks = r.enumerated(key, parse_stack_mode, stack_mode_names());
                 },
                 .write = [](const auto& s, auto& j, auto key) { j[key] = to_string(s.capabilities.stacks); }},
                {.key = "supported", .kind = FieldKind::StringList,
                 .read = [](const auto& r, auto key, auto& s) {
                   Capabilities& caps = s.capabilities;
                   caps.supported_stacks.clear();
                   for (const auto& name : r.optional_strings(key)) {
                     caps.supported_stacks.push_back(JsonReader::enum_value(name, "capabilities.stacks.supported item",
                                                                            parse_stack_mode, stack_mode_names()));
                   }
                   if (caps.supported_stacks.empty()) caps.supported_stacks.push_back(caps.stacks);
                 },
                 .write = [](const auto& s, auto& j, auto key) {
                   json modes = json::array();
                   for (auto mode : s.capabilities.supported_stacks) modes.push_back(to_string(mode));
                   j[key] = modes;
                 }},
            }, .optional = true},
       }},
      {.key = "build-tags", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& s) { s.build_tags = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.build_tags; }},
      {.key = "cflags", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& s) { s.cflags = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.cflags; }},
      {.key = "ldflags", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& s) { s.ldflags = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.ldflags; }},
      {.key = "context-cflags", .kind = FieldKind::StringListMap,
       .read = [](const auto& r, auto key, auto& s) { read_string_list_map(r, key, s.context_cflags); },
       .write = [](const auto& s, auto& j, auto key) { write_string_list_map(s.context_cflags, j, key); }},
      {.key = "context-ldflags", .kind = FieldKind::StringListMap,
       .read = [](const auto& r, auto key, auto& s) { read_string_list_map(r, key, s.context_ldflags); },
       .write = [](const auto& s, auto& j, auto key) { write_string_list_map(s.context_ldflags, j, key); }},
      context_records<&TargetSpec::context_eh, eh_fields>("context-eh"),
      context_records<&TargetSpec::context_merge, merge_fields>("context-merge"),
      {.key = "environments", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& s) { s.environments = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.environments; }},
      {.key = "asyncify-imports", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& s) { s.asyncify_imports = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.asyncify_imports; }},
      {.key = "asyncify-removelist", .kind = FieldKind::StringList,
       .read = [](const auto& r, auto key, auto& s) { s.asyncify_removelist = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.asyncify_removelist; }},
      {.key = "context-asyncify-removelist", .kind = FieldKind::StringListMap,
       .read = [](const auto& r, auto key, auto& s) { read_string_list_map(r, key, s.context_asyncify_removelist); },
       .write = [](const auto& s, auto& j, auto key) { write_string_list_map(s.context_asyncify_removelist, j, key); }},
      {.key = "default-stack-size", .kind = FieldKind::Integer,
       .read = [](const auto& r, auto key, auto& s) { s.default_stack_size = r.unsigned_integer(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.default_stack_size; }},
      // Absent: default-stack-size (read just before).
      {.key = "separate-stack-size", .kind = FieldKind::Integer,
       .read = [](const auto& r, auto key, auto& s) {
         s.separate_stack_size = r.find(key) ? r.unsigned_integer(key) : s.default_stack_size;
       },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.separate_stack_size; }},
      // Absent means no cap (the loader takes only positive integers there).
      {.key = "max-goroutines", .kind = FieldKind::Integer,
       .read = [](const auto& r, auto key, auto& s) { if (r.find(key)) s.max_goroutines = r.unsigned_integer(key); },
       .write = [](const auto& s, auto& j, auto key) { if (s.max_goroutines > 0) j[key] = s.max_goroutines; }},
      {.key = "link-optimization", .kind = FieldKind::String,
       .read = [](const auto& r, auto key, auto& s) { s.link_optimization = r.optional_string(key); },
       .write = [](const auto& s, auto& j, auto key) { if (!s.link_optimization.empty()) j[key] = s.link_optimization; }},
      {.key = "output", .kind = FieldKind::Object, .members = {
           {.key = "default-extension", .kind = FieldKind::String,
            .read = [](const auto& r, auto key, auto& s) { s.output.default_extension = r.string(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.output.default_extension; }},
           {.key = "accepted-extensions", .kind = FieldKind::StringList,
            .read = [](const auto& r, auto key, auto& s) { s.output.accepted_extensions = r.optional_strings(key); },
            .write = [](const auto& s, auto& j, auto key) { j[key] = s.output.accepted_extensions; }},
       }},
      {.key = "run-engines", .kind = FieldKind::StringList, .merge = MergeRule::Replaced,
       .read = [](const auto& r, auto key, auto& s) { s.run_engines = r.optional_strings(key); },
       .write = [](const auto& s, auto& j, auto key) { j[key] = s.run_engines; }},
      {.key = "engines", .kind = FieldKind::ObjectMap,
       .read = [](const auto& r, auto key, auto& s) {
         r.each_member(key, [&](const std::string& name, const json& engine, const std::string& path) {
           read_fields(engine_fields(), JsonReader(engine, path), s.engines[name]);
         });
       },
       .write = [](const auto& s, auto& j, auto key) {
         json engines = json::object();
         for (const auto& [name, engine] : s.engines) write_fields(engine_fields(), engine, engines[name]);
         j[key] = engines;
       },
       .member_fields = [](const auto& prefix, auto& out) { append_fields(engine_fields(), prefix, out); }},
  };
  return fields;
}

// What a resolved target holds beside its spec, while its JSON form is read.
struct ResolvedRecords {
  Origin goos_origin = Origin::Target;
  Origin goarch_origin = Origin::Target;
  std::map<std::string, std::string> environment;
  std::map<std::string, std::string> overridden_environment;
  std::vector<std::string> descriptor_files;
};
// What the record keys are written from: the target and its effective flags, derived once.
struct ResolvedView {
  const ResolvedTarget& target;
  EffectiveFlags effective;
};

// The record keys resolution writes after the spec's. implied and effective are derived, and
// output-file is written by `llgo-wasm resolve --output`: none of them is read back.
const std::vector<Field<ResolvedRecords, ResolvedView>>& record_fields() {
  static const std::vector<Field<ResolvedRecords, ResolvedView>> fields{
      {.key = "format-version", .kind = FieldKind::Integer, .merge = MergeRule::Record,
       .read = [](const auto& r, auto key, auto&) {
         if (r.unsigned_integer(key) != static_cast<std::uint64_t>(kResolvedTargetFormatVersion)) {
           throw DriverError(std::string(key) + " " + r.member(key).dump() + " is not supported; this driver reads version " +
                             std::to_string(kResolvedTargetFormatVersion));
         }
       },
       .write = [](const auto&, auto& j, auto key) { j[key] = kResolvedTargetFormatVersion; }},
      {.key = "implied", .kind = FieldKind::Object, .merge = MergeRule::Record, .members = {
           {.key = "goos", .kind = FieldKind::Boolean, .merge = MergeRule::Record,
            .write = [](const auto& v, auto& j, auto key) { j[key] = v.target.implied_goos(); }},
           {.key = "goarch", .kind = FieldKind::Boolean, .merge = MergeRule::Record,
            .write = [](const auto& v, auto& j, auto key) { j[key] = v.target.implied_goarch(); }},
       }},
      {.key = "origin", .kind = FieldKind::Object, .merge = MergeRule::Record, .members = {
           {.key = "goos", .kind = FieldKind::String, .merge = MergeRule::Record,
            .read = [](const auto& r, auto key, auto& t) { t.goos_origin = r.enumerated(key, parse_origin, origin_names()); },
            .write = [](const auto& v, auto& j, auto key) { j[key] = to_string(v.target.goos_origin); }},
           {.key = "goarch", .kind = FieldKind::String, .merge = MergeRule::Record,
            .read = [](const auto& r, auto key, auto& t) { t.goarch_origin = r.enumerated(key, parse_origin, origin_names()); },
            .write = [](const auto& v, auto& j, auto key) { j[key] = to_string(v.target.goarch_origin); }},
       }},
      {.key = "environment", .kind = FieldKind::StringMap, .merge = MergeRule::Record,
       .read = [](const auto& r, auto key, auto& t) { t.environment = r.optional_string_map(key); },
       .write = [](const auto& v, auto& j, auto key) { j[key] = v.target.environment; }},
      {.key = "overridden-environment", .kind = FieldKind::StringMap, .merge = MergeRule::Record,
       .read = [](const auto& r, auto key, auto& t) { t.overridden_environment = r.optional_string_map(key); },
       .write = [](const auto& v, auto& j, auto key) { j[key] = v.target.overridden_environment; }},
      {.key = "descriptor-files", .kind = FieldKind::StringList, .merge = MergeRule::Record,
       .read = [](const auto& r, auto key, auto& t) { t.descriptor_files = r.strings(key); },
       .write = [](const auto& v, auto& j, auto key) { j[key] = v.target.descriptor_files; }},
      {.key = "effective", .kind = FieldKind::Object, .merge = MergeRule::Record, .members = {
           {.key = "build-tags", .kind = FieldKind::StringList, .merge = MergeRule::Record,
            .write = [](const auto& v, auto& j, auto key) { j[key] = v.effective.build_tags; }},
           {.key = "cflags", .kind = FieldKind::StringList, .merge = MergeRule::Record,
            .write = [](const auto& v, auto& j, auto key) { j[key] = v.effective.cflags; }},
           {.key = "ldflags", .kind = FieldKind::StringList, .merge = MergeRule::Record,
            .write = [](const auto& v, auto& j, auto key) { j[key] = v.effective.ldflags; }},
           {.key = "capabilities", .kind = FieldKind::StringList, .merge = MergeRule::Record,
            .write = [](const auto& v, auto& j, auto key) { j[key] = target_capabilities(v.target.spec); }},
       }},
      {.key = "output-file", .kind = FieldKind::Object, .merge = MergeRule::Record, .members = {
           {.key = "path", .kind = FieldKind::String, .merge = MergeRule::Record},
           {.key = "format", .kind = FieldKind::String, .merge = MergeRule::Record},
       }},
  };
  return fields;
}

}  // namespace

const std::vector<TargetField>& target_fields() {
  static const std::vector<TargetField> fields = [] {
    std::vector<TargetField> out;
    append_fields(spec_fields(), "", out);
    append_fields(record_fields(), "", out);
    return out;
  }();
  return fields;
}

std::string_view to_string(FieldKind kind) {
  switch (kind) {
    case FieldKind::String: return "String";
    case FieldKind::Boolean: return "Boolean";
    case FieldKind::Integer: return "Integer";
    case FieldKind::StringList: return "StringList";
    case FieldKind::Object: return "Object";
    case FieldKind::StringMap: return "StringMap";
    case FieldKind::StringListMap: return "StringListMap";
    case FieldKind::ObjectMap: return "ObjectMap";
    case FieldKind::NameOrNames: return "NameOrNames";
  }
  return "?";
}

std::string_view to_string(MergeRule merge) {
  switch (merge) {
    case MergeRule::Inherited: return "Inherited";
    case MergeRule::Replaced: return "Replaced";
    case MergeRule::Identity: return "Identity";
    case MergeRule::Record: return "Record";
  }
  return "?";
}

json spec_to_json(const TargetSpec& spec) {
  json document = json::object();
  write_fields(spec_fields(), spec, document);
  return document;
}

TargetSpec spec_from_json(const json& value) {
  TargetSpec spec;
  read_fields(spec_fields(), JsonReader(value, ""), spec);
  return spec;
}

json target_to_json(const ResolvedTarget& target) {
  json document = spec_to_json(target.spec);
  write_fields(record_fields(), ResolvedView{target, effective_flags(target.spec)}, document);
  return document;
}

ResolvedTarget target_from_json(const json& value) {
  // The record keys first, so a document of another format-version is refused before its keys are read.
  ResolvedRecords records;
  read_fields(record_fields(), JsonReader(value, ""), records);
  return ResolvedTarget{
      .spec = spec_from_json(value),
      .goos_origin = records.goos_origin,
      .goarch_origin = records.goarch_origin,
      .environment = std::move(records.environment),
      .overridden_environment = std::move(records.overridden_environment),
      .descriptor_files = std::move(records.descriptor_files),
  };
}

}  // namespace llgo_wasm
