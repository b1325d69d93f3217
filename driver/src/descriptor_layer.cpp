// Parses one descriptor file into a Layer, checking it against the schema (see
// descriptor_layer.hpp).
#include "descriptor_layer.hpp"

#include <algorithm>

#include "descriptor_schema.hpp"
#include "json_positions.hpp"
#include "json_text_checks.hpp"
#include "llgo_wasm/input_limits.hpp"
#include "suggest.hpp"

namespace llgo_wasm::detail {
namespace {

using nlohmann::json;

std::string kind_description(FieldKind kind) {
  switch (kind) {
    case FieldKind::String: return "a string";
    case FieldKind::Boolean: return "true or false";
    case FieldKind::Integer: return "a positive integer";
    case FieldKind::StringList: return "a list of strings";
    case FieldKind::Object:
    case FieldKind::ObjectMap: return "an object";
    case FieldKind::StringMap: return "an object of strings";
    case FieldKind::StringListMap: return "an object of string lists";
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

bool is_comment(const std::string& key) { return key.rfind("//", 0) == 0; }

std::string join_path(const std::string& parent, const std::string& key) { return parent.empty() ? key : parent + "/" + key; }

class LayerParser {
 public:
  explicit LayerParser(const DescriptorSource& source) : source_(source), schema_(DescriptorSchema::embedded()) {}

  Layer parse() {
    check_json_text_limits(source_.text, source_.file_name,
                           {limits::kMaxDescriptorBytes, limits::kMaxJsonNestingDepth, "a target descriptor"});
    json document = parse_json_text(source_.text, source_.file_name);
    positions_ = scan_json_positions(source_.text, source_.file_name);
    if (!document.is_object()) throw DriverError(positions_.value_at(""), "a target descriptor must be a JSON object");
    layer_.file_name = source_.file_name;
    walk(document, "", "", "");
    if (layer_.name.empty()) throw DriverError(Location{source_.file_name, 1, 1}, "the descriptor has no \"name\"");
    return std::move(layer_);
  }

 private:
  // `schema_parent` names map members "*"; `leaf_parent` and `position_parent` name them.
  void walk(const json& object, const std::string& schema_parent, const std::string& leaf_parent,
            const std::string& position_parent) {
    for (const auto& [key, value] : object.items()) {
      if (is_comment(key)) continue;  // the reason for a neighbouring value
      std::string schema_path = join_path(schema_parent, key);
      std::string leaf_path = join_path(leaf_parent, key);
      std::string position_path = json_path_append(position_parent, key);
      const FieldSchema* field = schema_.find(schema_path);
      if (!field) {
        std::vector<std::string> known = schema_.keys_under(schema_parent);
        std::string where = leaf_parent.empty() ? "a target descriptor" : "\"" + dotted(leaf_parent) + "\"";
        throw DriverError(positions_.key_at(position_path),
                          "unknown key \"" + key + "\" in " + where + did_you_mean(key, known) + "; known keys: " + join(known));
      }
      check_type(*field, leaf_path, value, position_path);
      switch (field->kind) {
        case FieldKind::Object:
          walk(value, schema_path, leaf_path, position_path);
          break;
        case FieldKind::ObjectMap:
          for (const auto& [member, body] : value.items()) {
            if (is_comment(member)) continue;
            std::string member_position = json_path_append(position_path, member);
            if (!body.is_object()) fail_type(dotted(leaf_path + "/" + member), "an object", body, member_position);
            walk(body, schema_path + "/*", leaf_path + "/" + member, member_position);
          }
          break;
        case FieldKind::StringListMap:
          for (const auto& [member, list] : value.items()) {
            if (is_comment(member)) continue;
            std::string member_position = json_path_append(position_path, member);
            check_string_list(dotted(leaf_path + "/" + member), list, member_position, "a list of strings");
            record_leaf(leaf_path + "/" + member, list, member_position, true);
          }
          break;
        default:
          record(*field, leaf_path, value, position_path);
      }
    }
  }

  [[noreturn]] void fail_type(const std::string& name, const std::string& expected, const json& value,
                              const std::string& position_path) {
    throw DriverError(positions_.value_at(position_path), "\"" + name + "\" must be " + expected + ", not " + type_name(value));
  }

  void check_string_list(const std::string& name, const json& value, const std::string& position_path,
                         const std::string& expected) {
    if (!value.is_array()) fail_type(name, expected, value, position_path);
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string()) {
        throw DriverError(positions_.value_at(json_path_append(position_path, i)),
                          "\"" + name + "\" must be " + expected + ", but item " + std::to_string(i + 1) + " is " +
                              type_name(value[i]));
      }
    }
  }

  void check_type(const FieldSchema& field, const std::string& leaf_path, const json& value,
                  const std::string& position_path) {
    const std::string name = dotted(leaf_path);
    const std::string expected = kind_description(field.kind);
    switch (field.kind) {
      case FieldKind::String:
        if (!value.is_string()) fail_type(name, expected, value, position_path);
        break;
      case FieldKind::Boolean:
        if (!value.is_boolean()) fail_type(name, expected, value, position_path);
        break;
      case FieldKind::Integer:
        if (!value.is_number_unsigned() || value.get<std::uint64_t>() == 0) fail_type(name, expected, value, position_path);
        break;
      case FieldKind::Object:
      case FieldKind::ObjectMap:
      case FieldKind::StringListMap:
        if (!value.is_object()) fail_type(name, expected, value, position_path);
        break;
      case FieldKind::StringMap:
        if (!value.is_object()) fail_type(name, expected, value, position_path);
        for (const auto& [key, item] : value.items()) {
          if (!item.is_string()) {
            throw DriverError(positions_.value_at(json_path_append(position_path, key)),
                              "\"" + name + "." + key + "\" must be a string, not " + type_name(item));
          }
        }
        break;
      case FieldKind::NameOrNames:
        if (value.is_string()) break;
        check_string_list(name, value, position_path, expected);
        break;
      case FieldKind::StringList:
        check_string_list(name, value, position_path, expected);
        break;
    }
    if (field.allowed.empty()) return;
    auto check_spelling = [&](const json& item, const std::string& at) {
      std::string spelling = item.get<std::string>();
      if (std::find(field.allowed.begin(), field.allowed.end(), spelling) != field.allowed.end()) return;
      throw DriverError(positions_.value_at(at), "\"" + name + "\" cannot be \"" + spelling + "\"" +
                                                     did_you_mean(spelling, field.allowed) + "; expected one of " +
                                                     join(field.allowed));
    };
    if (value.is_string()) check_spelling(value, position_path);
    if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) check_spelling(value[i], json_path_append(position_path, i));
    }
  }

  void record(const FieldSchema& field, const std::string& path, const json& value, const std::string& position_path) {
    Location where = positions_.value_at(position_path);
    if (field.merge == MergeRule::Record) {
      // Recomputed by resolution, except what a resolved target keeps: the files it was merged
      // from and the environment it was resolved in (which selects among its platform's targets).
      if (path == "descriptor-files") layer_.recorded_files = value.get<std::vector<std::string>>();
      if (path == "environment") layer_.recorded_environment = value.get<std::map<std::string, std::string>>();
      return;
    }
    if (field.merge == MergeRule::Inherited || field.merge == MergeRule::Replaced) {
      record_leaf(path, value, position_path, field.kind == FieldKind::StringList && field.merge == MergeRule::Inherited);
      return;
    }
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
          layer_.parents.push_back({value[i].get<std::string>(), positions_.value_at(json_path_append(position_path, i))});
        }
      }
    } else {
      throw DriverError(where, "targets/schema.json marks \"" + dotted(path) + "\" as an identity key, which the loader does not know");
    }
  }

  void record_leaf(const std::string& path, const json& value, const std::string& position_path, bool list) {
    Leaf leaf{value, positions_.value_at(position_path), {}, list};
    if (list) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        leaf.item_locations.push_back(positions_.value_at(json_path_append(position_path, i)));
      }
    }
    layer_.leaves[path] = std::move(leaf);
  }

  const DescriptorSource& source_;
  const DescriptorSchema& schema_;
  JsonPositions positions_;
  Layer layer_;
};

}  // namespace

Layer parse_layer(const DescriptorSource& source) { return LayerParser(source).parse(); }

}  // namespace llgo_wasm::detail
