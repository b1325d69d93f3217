// Reads targets/schema.json into the loader's field table (see descriptor_schema.hpp).
#include "descriptor_schema.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "embedded_descriptors.hpp"
#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {
namespace {

using nlohmann::json;

class SchemaReader {
 public:
  SchemaReader(const json& root, std::vector<FieldSchema>& fields) : root_(root), fields_(fields) {}

  void add_properties(const json& properties, const std::string& prefix, MergeRule merge) {
    for (const auto& [key, node] : properties.items()) {
      std::string path = prefix.empty() ? key : prefix + "/" + key;
      add(path, node, merge_rule(node, merge, path));
    }
  }

 private:
  void add(const std::string& path, const json& node, MergeRule merge) {
    const json& shape = resolve(node, path);
    if (shape.contains("properties")) {
      fields_.push_back({path, FieldKind::Object, merge, {}});
      add_properties(shape["properties"], path, merge);
      return;
    }
    if (auto members = shape.find("additionalProperties"); members != shape.end() && members->is_object()) {
      const json& member = resolve(*members, path + "/*");
      if (member.contains("properties")) {
        fields_.push_back({path, FieldKind::ObjectMap, merge, {}});
        add_properties(member["properties"], path + "/*", merge);
      } else if (is_list(member)) {
        fields_.push_back({path, FieldKind::StringListMap, merge, {}});
      } else if (is_string(member)) {
        fields_.push_back({path, FieldKind::StringMap, merge, {}});
      } else {
        unsupported(path + "/*");
      }
      return;
    }
    if (auto alternatives = shape.find("oneOf"); alternatives != shape.end()) {
      bool list = std::any_of(alternatives->begin(), alternatives->end(), [&](const json& a) { return is_list(resolve(a, path)); });
      fields_.push_back({path, list ? FieldKind::NameOrNames : FieldKind::String, merge, {}});
      return;
    }
    if (is_list(shape)) {
      fields_.push_back({path, FieldKind::StringList, merge, spellings(resolve(shape["items"], path))});
    } else if (is_string(shape)) {
      fields_.push_back({path, FieldKind::String, merge, spellings(shape)});
    } else if (shape.value("type", "") == "boolean") {
      fields_.push_back({path, FieldKind::Boolean, merge, {}});
    } else if (shape.value("type", "") == "integer" || is_integer_enum(shape)) {
      fields_.push_back({path, FieldKind::Integer, merge, {}});
    } else {
      unsupported(path);
    }
  }

  // The node a "$ref" names (annotations beside a $ref, such as x-llgo-merge, are read from
  // the referring node by merge_rule).
  const json& resolve(const json& node, const std::string& path) const {
    auto ref = node.find("$ref");
    if (ref == node.end()) return node;
    std::string target = ref->get<std::string>();
    const std::string prefix = "#/$defs/";
    if (target.rfind(prefix, 0) != 0 || !root_["$defs"].contains(target.substr(prefix.size()))) {
      throw DriverError("targets/schema.json: " + path + " refers to " + target + ", which is not in $defs");
    }
    return resolve(root_["$defs"][target.substr(prefix.size())], path);
  }

  static MergeRule merge_rule(const json& node, MergeRule inherited, const std::string& path) {
    auto rule = node.find("x-llgo-merge");
    if (rule == node.end()) return inherited;
    if (*rule == "identity") return MergeRule::Identity;
    if (*rule == "record") return MergeRule::Record;
    if (*rule == "inherited") return MergeRule::Inherited;
    if (*rule == "replace") return MergeRule::Replaced;
    throw DriverError("targets/schema.json: " + path + " has x-llgo-merge " + rule->dump() +
                      "; expected inherited, replace, identity or record");
  }

  static bool is_list(const json& node) { return node.value("type", "") == "array"; }
  static bool is_string(const json& node) {
    if (node.value("type", "") == "string" || node.contains("const")) return true;
    auto values = node.find("enum");
    return values != node.end() && !values->empty() && values->front().is_string();
  }
  static bool is_integer_enum(const json& node) {
    auto values = node.find("enum");
    return values != node.end() && !values->empty() && values->front().is_number_integer();
  }
  static std::vector<std::string> spellings(const json& node) {
    std::vector<std::string> out;
    if (auto values = node.find("enum"); values != node.end()) {
      for (const auto& value : *values) out.push_back(value.get<std::string>());
    }
    return out;
  }
  [[noreturn]] static void unsupported(const std::string& path) {
    throw DriverError("targets/schema.json: the loader cannot read the schema of " + path +
                      " (use properties, additionalProperties, type, enum, $ref or oneOf)");
  }

  const json& root_;
  std::vector<FieldSchema>& fields_;
};

}  // namespace

DescriptorSchema DescriptorSchema::parse(std::string_view text) {
  json root = json::parse(text);
  DescriptorSchema schema;
  SchemaReader(root, schema.fields_).add_properties(root.at("properties"), "", MergeRule::Inherited);
  const json& contexts = root.at("$defs").at("context");
  schema.context_backends_ = contexts.at("enum").get<std::vector<std::string>>();
  const json needs = contexts.value("x-llgo-needs", json::object());
  for (const auto& [name, need] : needs.items()) {
    schema.context_needs_[name] = {need.at("what").get<std::string>(), need.at("key").get<std::string>(),
                                   need.at("one-of").get<std::vector<json>>()};
  }
  const json stacks = contexts.value("x-llgo-stacks", json::object());
  for (const auto& [name, modes] : stacks.items()) {
    for (const auto& mode : modes) {
      auto parsed = parse_stack_mode(mode.get<std::string>());
      if (!parsed) throw DriverError("targets/schema.json: x-llgo-stacks of " + name + " names " + mode.dump() + ", not a stack mode");
      schema.context_stacks_[name].push_back(*parsed);
    }
  }
  return schema;
}

std::vector<StackMode> DescriptorSchema::context_stacks(const std::string& context) const {
  auto found = context_stacks_.find(context);
  return found == context_stacks_.end() ? std::vector<StackMode>{StackMode::Separate} : found->second;
}

const DescriptorSchema& DescriptorSchema::embedded() {
  static const DescriptorSchema schema = parse(std::string_view(reinterpret_cast<const char*>(kEmbeddedSchema.data), kEmbeddedSchema.size));
  return schema;
}

const FieldSchema* DescriptorSchema::find(std::string_view path) const {
  for (const auto& field : fields_) {
    if (field.path == path) return &field;
  }
  return nullptr;
}

std::vector<std::string> DescriptorSchema::keys_under(std::string_view parent) const {
  std::vector<std::string> keys;
  for (const auto& field : fields_) {
    std::string_view path = field.path;
    if (!parent.empty()) {
      if (path.size() <= parent.size() + 1 || path.substr(0, parent.size()) != parent || path[parent.size()] != '/') continue;
      path.remove_prefix(parent.size() + 1);
    }
    if (path.find('/') == std::string_view::npos) keys.emplace_back(path);
  }
  return keys;
}

std::string dotted(std::string_view path) {
  std::string out(path);
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

}  // namespace llgo_wasm::detail
