// The fields of a target's JSON form, declared once (driver/vocabulary/src/target_json.cpp):
// every descriptor key and every record key `llgo-wasm resolve --json` writes, with its kind and
// how it merges along `inherits`. The same table is what spec_from_json and spec_to_json (and
// target_from_json, target_to_json) walk, so adding a field is one entry there plus the member
// of TargetSpec it fills. targets/schema.json (what the loader and editors check descriptors
// against) and the key table of docs/targets.md are checked against it by
// tests/driver/target_fields_test.cpp, which names the field and what differs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace llgo_wasm {

// The JSON shape of a field.
enum class FieldKind {
  String,
  Boolean,
  Integer,
  StringList,
  Object,         // fixed keys, walked into
  StringMap,      // {name: string}
  StringListMap,  // {name: [strings]}
  ObjectMap,      // {name: {fixed keys}}, walked into with "*" for the name
  NameOrNames,    // a string or a list of strings (inherits)
};

// How a field merges along `inherits` (x-llgo-merge in targets/schema.json).
enum class MergeRule {
  Inherited,  // scalars override, lists append
  Replaced,   // inherited as a whole: a later value replaces it (an argv, where order and repeats matter)
  Identity,   // belongs to the file that writes it (name, inherits, ...)
  Record,     // written by `resolve --json`; recomputed on load
};

struct TargetField {
  std::string path;  // '/'-separated; a map member's name is "*" ("engines/*/command")
  FieldKind kind;
  MergeRule merge;
};

// Every field, parents before their members: the descriptor keys in the order spec_from_json
// reads them (a descriptor missing several keys hears about the first), then the record keys.
const std::vector<TargetField>& target_fields();

// "StringList", "Replaced", ...: for messages.
std::string_view to_string(FieldKind);
std::string_view to_string(MergeRule);

}  // namespace llgo_wasm
