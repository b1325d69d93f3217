// The field table (llgo_wasm/target_fields.hpp) is the one declaration of a target's fields: the
// JSON reader and writer walk it, and targets/schema.json and the key table of docs/targets.md
// must agree with it. Each difference is named: the field, and what the table and the other
// side say. The checks are run on mutated copies too, so a drift is shown to fail them.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "descriptor_schema.hpp"
#include "llgo_wasm/target_fields.hpp"

namespace llgo_wasm {
namespace {

std::string read_source_file(const std::string& relative) {
  std::ifstream in(std::string(LLGO_WASM_SOURCE_DIR) + "/" + relative, std::ios::binary);
  EXPECT_TRUE(in) << relative;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string dotted(std::string path) {
  for (char& c : path) c = c == '/' ? '.' : c;
  return path;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

bool mentions(const std::vector<std::string>& differences, const std::string& fragment) {
  for (const auto& difference : differences) {
    if (difference.find(fragment) != std::string::npos) return true;
  }
  return false;
}

// What targets/schema.json (as the loader reads it) says differently from the table.
std::vector<std::string> schema_differences(const std::string& schema_text) {
  std::map<std::string, const detail::FieldSchema*> schema;
  detail::DescriptorSchema parsed = detail::DescriptorSchema::parse(schema_text);
  for (const auto& field : parsed.fields()) schema[field.path] = &field;
  std::vector<std::string> out;
  std::set<std::string> declared;
  for (const auto& field : target_fields()) {
    declared.insert(field.path);
    auto found = schema.find(field.path);
    if (found == schema.end()) {
      out.push_back("field \"" + dotted(field.path) + "\" is in the field table but not in targets/schema.json");
      continue;
    }
    if (found->second->kind != field.kind) {
      out.push_back("field \"" + dotted(field.path) + "\": the field table says kind " + std::string(to_string(field.kind)) +
                    ", targets/schema.json says " + std::string(to_string(found->second->kind)));
    }
    if (found->second->merge != field.merge) {
      out.push_back("field \"" + dotted(field.path) + "\": the field table says merge rule " +
                    std::string(to_string(field.merge)) + ", targets/schema.json says " +
                    std::string(to_string(found->second->merge)));
    }
  }
  for (const auto& [path, field] : schema) {
    if (!declared.count(path)) out.push_back("targets/schema.json has \"" + dotted(path) + "\", which the field table lacks");
  }
  return out;
}

// One row of docs/targets.md's key table: the keys it documents ('/'-separated), its type and
// inherited cells.
struct DocsRow {
  std::vector<std::string> keys;
  std::string type;
  std::string inherited;
};

// The cells of a Markdown table row; a '|' inside `code` is text.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool code = false;
  for (char c : line) {
    if (c == '`') code = !code;
    if (c == '|' && !code) {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  for (auto& text : cells) {
    text.erase(0, text.find_first_not_of(' '));
    text.erase(text.find_last_not_of(' ') + 1);
  }
  // The empty cells before the first and after the last '|'.
  if (!cells.empty()) cells.erase(cells.begin());
  return cells;
}

// "`capabilities.eh.compile`, `.final`" -> capabilities/eh/compile, capabilities/eh/final.
std::vector<std::string> keys_of(const std::string& cell) {
  std::vector<std::string> keys;
  for (std::size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
    std::size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    std::string key = cell.substr(open + 1, close - open - 1);
    if (!key.empty() && key[0] == '.' && !keys.empty()) {
      const std::string& previous = keys.back();
      key = previous.substr(0, previous.rfind('/')) + key;
    }
    for (char& c : key) c = c == '.' ? '/' : c;
    keys.push_back(key);
    open = close + 1;
  }
  return keys;
}

std::vector<DocsRow> docs_rows(const std::string& docs_text) {
  std::vector<DocsRow> rows;
  std::istringstream in(docs_text);
  std::string line;
  bool table = false;
  while (std::getline(in, line)) {
    if (line.rfind("| key | type | inherited | meaning |", 0) == 0) {
      table = true;
      std::getline(in, line);  // |---|---|...
      continue;
    }
    if (!table) continue;
    if (line.empty() || line[0] != '|') break;
    std::vector<std::string> cells = cells_of(line);
    if (cells.size() < 3) continue;
    rows.push_back({keys_of(cells[0]), cells[1], cells[2]});
  }
  return rows;
}

// How docs/targets.md spells a kind in its type column.
bool type_cell_says(const std::string& cell, FieldKind kind) {
  auto has = [&](const char* text) { return cell.find(text) != std::string::npos; };
  bool braces = cell.rfind("`{", 0) == 0;
  switch (kind) {
    case FieldKind::String: return !has("list") && !braces && (has("string") || cell.rfind('`', 0) == 0);
    case FieldKind::Boolean: return cell.rfind("bool", 0) == 0;
    case FieldKind::Integer: return has("integer");
    case FieldKind::StringList: return has("list") && !braces && !has("string or list");
    case FieldKind::Object: return braces && !has(": ");
    case FieldKind::StringMap: return cell == "object" || (braces && has(": ") && !has(": [") && !has(": {"));
    case FieldKind::StringListMap: return braces && has(": [");
    case FieldKind::ObjectMap: return braces && has(": {");
    case FieldKind::NameOrNames: return has("string or list");
  }
  return false;
}

bool is_under(const std::string& path, const std::string& parent) {
  return path == parent || (path.size() > parent.size() && path.compare(0, parent.size(), parent) == 0 && path[parent.size()] == '/');
}

// What docs/targets.md's key table says differently from the field table: a key it lacks or has
// in excess, a type it spells as another kind, an inherited column that says otherwise. Record
// keys (written by resolve --json) are described in prose below the table, not in it.
std::vector<std::string> docs_differences(const std::string& docs_text) {
  std::map<std::string, TargetField> table;
  for (const auto& field : target_fields()) table.emplace(field.path, field);
  std::vector<DocsRow> rows = docs_rows(docs_text);
  std::vector<std::string> out;
  if (rows.empty()) out.push_back("docs/targets.md has no table headed | key | type | inherited | meaning |");
  std::set<std::string> documented;
  for (const auto& row : rows) {
    for (const auto& key : row.keys) {
      documented.insert(key);
      auto found = table.find(key);
      if (found == table.end() || found->second.merge == MergeRule::Record) {
        out.push_back("docs/targets.md documents \"" + dotted(key) + "\", which the field table lacks");
        continue;
      }
      const TargetField& field = found->second;
      if (!type_cell_says(row.type, field.kind)) {
        out.push_back("field \"" + dotted(key) + "\": the field table says kind " + std::string(to_string(field.kind)) +
                      ", docs/targets.md's type column says \"" + row.type + "\"");
      }
      bool inherited = field.merge != MergeRule::Identity;
      if (row.inherited.rfind(inherited ? "yes" : "no", 0) != 0) {
        out.push_back("field \"" + dotted(key) + "\": the field table says merge rule " + std::string(to_string(field.merge)) +
                      " (" + (inherited ? "inherited" : "not inherited") + "), docs/targets.md's inherited column says \"" +
                      row.inherited + "\"");
      }
      // A key whose value (or a member's) a descendant replaces whole says so.
      bool replaced = false;
      for (const auto& [path, member] : table) replaced = replaced || (is_under(path, key) && member.merge == MergeRule::Replaced);
      if (replaced != (row.inherited.find("replace") != std::string::npos)) {
        out.push_back("field \"" + dotted(key) + "\": the field table says " +
                      (replaced ? "a descendant replaces it (or a member) whole" : "it merges (no member is replaced whole)") +
                      ", docs/targets.md's inherited column says \"" + row.inherited + "\"");
      }
    }
  }
  // Every field a descriptor may write is documented, by its own row or its parent's (an object
  // with its own rows for each member, such as capabilities, needs none).
  for (const auto& field : target_fields()) {
    if (field.merge == MergeRule::Record || field.kind == FieldKind::Object) continue;
    bool covered = false;
    for (const auto& key : documented) covered = covered || is_under(field.path, key);
    if (!covered) {
      out.push_back("field \"" + dotted(field.path) + "\" (" + std::string(to_string(field.kind)) +
                    ") is not in docs/targets.md's key table");
    }
  }
  return out;
}

TEST(TargetFields, SchemaDeclaresEveryFieldAsTheTableDoes) {
  std::vector<std::string> differences = schema_differences(read_source_file("targets/schema.json"));
  EXPECT_TRUE(differences.empty()) << joined(differences);
}

TEST(TargetFields, DocsTableListsEveryFieldAsTheTableDoes) {
  std::vector<std::string> differences = docs_differences(read_source_file("docs/targets.md"));
  EXPECT_TRUE(differences.empty()) << joined(differences);
}

// The table's paths are unique, and every member follows its parent.
TEST(TargetFields, EachFieldIsDeclaredOnceAfterItsParent) {
  std::set<std::string> seen;
  for (const auto& field : target_fields()) {
    EXPECT_TRUE(seen.insert(field.path).second) << field.path << " is declared twice";
    std::size_t slash = field.path.rfind('/');
    if (slash == std::string::npos) continue;
    std::string parent = field.path.substr(0, slash);
    if (parent.size() > 2 && parent.compare(parent.size() - 2, 2, "/*") == 0) parent.resize(parent.size() - 2);
    EXPECT_TRUE(seen.count(parent)) << field.path << " comes before its parent " << parent;
  }
}

// The checks above fail, naming the field, when the schema drifts from the table.
TEST(TargetFields, SchemaDriftIsNamed) {
  const nlohmann::json schema = nlohmann::json::parse(read_source_file("targets/schema.json"));
  auto drifted = [&](auto change) {
    nlohmann::json copy = schema;
    change(copy["properties"]);
    return schema_differences(copy.dump());
  };

  std::vector<std::string> renamed = drifted([](nlohmann::json& keys) {
    keys["capabilities"]["properties"]["thread"] = keys["capabilities"]["properties"]["threads"];
    keys["capabilities"]["properties"].erase("threads");
  });
  EXPECT_TRUE(mentions(renamed, "field \"capabilities.threads\" is in the field table but not in targets/schema.json"))
      << joined(renamed);
  EXPECT_TRUE(mentions(renamed, "targets/schema.json has \"capabilities.thread\", which the field table lacks")) << joined(renamed);

  std::vector<std::string> retyped = drifted([](nlohmann::json& keys) { keys["capabilities"]["properties"]["memory64"] = {{"type", "string"}}; });
  EXPECT_TRUE(mentions(retyped, "field \"capabilities.memory64\": the field table says kind Boolean, targets/schema.json says String"))
      << joined(retyped);

  std::vector<std::string> merged = drifted([](nlohmann::json& keys) { keys["run-engines"].erase("x-llgo-merge"); });
  EXPECT_TRUE(mentions(merged, "field \"run-engines\": the field table says merge rule Replaced, targets/schema.json says Inherited"))
      << joined(merged);

  std::vector<std::string> member = drifted([](nlohmann::json& keys) {
    keys["engines"]["additionalProperties"]["properties"].erase("labels");
  });
  EXPECT_TRUE(mentions(member, "field \"engines.*.labels\" is in the field table but not in targets/schema.json")) << joined(member);
}

// ... and when docs/targets.md's key table does.
TEST(TargetFields, DocsDriftIsNamed) {
  const std::string docs = read_source_file("docs/targets.md");
  auto drifted = [&](const std::string& from, const std::string& to) {
    std::string copy = docs;
    std::size_t at = copy.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) copy.replace(at, from.size(), to);
    return docs_differences(copy);
  };

  std::vector<std::string> dropped = drifted("| `triple` | string | yes | the LLVM target triple |\n", "");
  EXPECT_TRUE(mentions(dropped, "field \"triple\" (String) is not in docs/targets.md's key table")) << joined(dropped);

  std::vector<std::string> renamed = drifted("| `triple` |", "| `tripel` |");
  EXPECT_TRUE(mentions(renamed, "docs/targets.md documents \"tripel\", which the field table lacks")) << joined(renamed);

  std::vector<std::string> retyped = drifted("| `host` | bool |", "| `host` | string |");
  EXPECT_TRUE(mentions(retyped, "field \"host\": the field table says kind Boolean, docs/targets.md's type column says \"string\""))
      << joined(retyped);

  std::vector<std::string> identity = drifted("| `variant` | `J32` `J64` `P1` `P1T` `native` | yes |",
                                              "| `variant` | `J32` `J64` `P1` `P1T` `native` | no |");
  EXPECT_TRUE(mentions(identity, "field \"variant\": the field table says merge rule Inherited (inherited), "
                                 "docs/targets.md's inherited column says \"no\"")) << joined(identity);

  std::vector<std::string> replaced = drifted("| yes (a descendant's list replaces it) |", "| yes (appends) |");
  EXPECT_TRUE(mentions(replaced, "field \"run-engines\": the field table says a descendant replaces it (or a member) whole"))
      << joined(replaced);
}

}  // namespace
}  // namespace llgo_wasm
