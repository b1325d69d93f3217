// The descriptor schema: targets/schema.json, embedded at build time, read into the table of
// keys the loader accepts: the loader and editors go by it. It agrees with the vocabulary's
// field table (llgo_wasm/target_fields.hpp), key for key, kind for kind and merge rule for merge
// rule: tests/driver/target_fields_test.cpp fails when they drift.
//
// Only the subset of JSON Schema the file uses is understood, mapped onto field kinds:
// "properties" (an object with fixed keys), "additionalProperties": <schema> (a map: strings,
// flag lists or objects), "type"/"enum"/"$ref"/"oneOf" for scalars and lists. The keyword
// "x-llgo-merge" says how a key merges along `inherits` (inherited, replace, identity, record).
// Numeric limits (minimum, multipleOf) and patterns are left to the named rules, which
// explain themselves better than a generic schema message.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llgo_wasm/target.hpp"
#include "llgo_wasm/target_fields.hpp"

namespace llgo_wasm::detail {

// The kinds and merge rules of the vocabulary's field table (llgo_wasm/target_fields.hpp), which
// this schema is checked against (tests/driver/target_fields_test.cpp).
using llgo_wasm::FieldKind;
using llgo_wasm::MergeRule;

struct FieldSchema {
  std::string path;  // '/'-separated; a map member's name is "*" ("engines/*/command")
  FieldKind kind;
  MergeRule merge = MergeRule::Inherited;
  // Enumerated spellings of a string or of each list item. Map member names and values are
  // left to the named rules (requires-env, context-ldflags), whose messages say more.
  std::vector<std::string> allowed;
};

// What a target needs to use a context backend ($defs/context/x-llgo-needs): the value at
// `key` of the serialised spec (or one of the facts "triple-is-wasm", "triple-is-emscripten",
// "triple-is-wasi") must be one of `one_of`. `what` says it in words for messages.
struct ContextNeed {
  std::string what;
  std::string key;
  std::vector<nlohmann::json> one_of;
};

class DescriptorSchema {
 public:
  // targets/schema.json as embedded in the library, read once.
  static const DescriptorSchema& embedded();
  // Reads a schema document (the embedded one, or another in tests). Throws DriverError when
  // it uses a construct this reader does not map.
  static DescriptorSchema parse(std::string_view text);

  // The field at `path`, where map members are written "*"; nullptr when there is none.
  const FieldSchema* find(std::string_view path) const;
  // Keys directly under `parent` ("" for the top level), for messages.
  std::vector<std::string> keys_under(std::string_view parent) const;
  const std::vector<FieldSchema>& fields() const { return fields_; }
  // The context backends ($defs/context) and what a target needs for each one that has a need.
  const std::vector<std::string>& context_backends() const { return context_backends_; }
  const std::map<std::string, ContextNeed>& context_needs() const { return context_needs_; }
  // The stack modes a context backend can run ($defs/context/x-llgo-stacks); separate only for a
  // backend the schema does not list.
  std::vector<StackMode> context_stacks(const std::string& context) const;

 private:
  std::vector<FieldSchema> fields_;
  std::vector<std::string> context_backends_;
  std::map<std::string, ContextNeed> context_needs_;
  std::map<std::string, std::vector<StackMode>> context_stacks_;
};

// "capabilities/eh/compile" -> "capabilities.eh.compile", for messages.
std::string dotted(std::string_view path);

}  // namespace llgo_wasm::detail
