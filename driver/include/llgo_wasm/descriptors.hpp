// Target descriptors: loading targets/*.json, merging `inherits`, and checking them.
//
// A DescriptorSet is loaded once (the built-in one is embedded in the library at
// build time, with the original file names kept for messages) and then answers
// lookups without parsing anything again. Loading goes by targets/schema.json (embedded
// too) and rejects, with file:line:col: JSON syntax errors, duplicate keys, unknown keys
// (with a did-you-mean), wrong types, missing or cyclic parents, duplicate list values
// after merging, and whatever breaks one of the named consistency rules. The jobs live in
// src/descriptor_{schema,layer,merge,rules,set}.cpp. See docs/targets.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// One descriptor file: the name used in messages and its text.
struct DescriptorSource {
  std::string file_name;
  std::string text;
};

// A merged, checked, concrete descriptor. spec is complete; for the host descriptor
// its goos, goarch, triple and data model are the driver's own build platform.
struct TargetDescriptor {
  TargetSpec spec;
  // Chosen by plain GOOS/GOARCH (no target name) when required_environment holds.
  bool platform_default = false;
  std::map<std::string, std::string> required_environment;
  // Files merged into this descriptor, parents first, this one last (for a resolved target
  // loaded again: the files it records).
  std::vector<std::string> files;
  // For a resolved target loaded again: the effective environment it was resolved in.
  std::optional<std::map<std::string, std::string>> recorded_environment;
  bool operator==(const TargetDescriptor&) const = default;
};

class DescriptorSet {
 public:
  // Parses and checks every source. Sources whose descriptor says "abstract": true
  // can be inherited from but not resolved. Throws DriverError on the first problem.
  static DescriptorSet load(const std::vector<DescriptorSource>& sources);

  // The concrete descriptors in a compact form (CBOR), for the build to precompute the
  // built-in set once (driver/tools/precompile_targets.cpp), and the set back from it without
  // parsing, merging or checking anything: the start-up of every `llgo-wasm` process. The
  // sources are parsed only when a custom descriptor inherits from the set; they must outlive it.
  std::vector<std::uint8_t> precompiled() const;
  static DescriptorSet from_precompiled(const std::uint8_t* data, std::size_t size,
                                        const std::vector<DescriptorSource>& sources);

  // The concrete descriptor with this name, or nullptr.
  const TargetDescriptor* find(std::string_view name) const;
  // Concrete descriptors, sorted by name.
  const std::vector<TargetDescriptor>& targets() const;
  // Names of concrete descriptors, sorted.
  std::vector<std::string> names() const;

  // Loads a descriptor that is not part of the set (a user's --target file.json).
  // Its `inherits` may name descriptors of this set (abstract ones too) or other
  // files by a path relative to it, inside its own directory tree or, when the caller
  // gives a search path, inside one of those directories (where relative names are
  // also looked up). The result must be concrete.
  TargetDescriptor load_file(const std::string& path, const std::vector<std::string>& search_path = {}) const;
  TargetDescriptor load_source(const DescriptorSource& source, const std::vector<std::string>& search_path = {}) const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
};

// The concrete targets as JSON: [{"name", "variant", "goos", "goarch", "triple",
// "platform-default", "requires-env", "descriptor-files"}], sorted by name.
nlohmann::json targets_to_json(const DescriptorSet& descriptors);

// Every key the loader accepts, as '/'-separated paths ("capabilities/eh/compile", map
// members as "*": "engines/*/command"), objects included: the keys of targets/schema.json.
// Keys starting with "//" (comments) are accepted in every object as well.
std::vector<std::string> descriptor_schema_keys();

// The descriptors of targets/*.json, loaded and checked at build time and embedded precompiled
// (builtin_descriptors() == DescriptorSet::load(builtin_descriptor_sources()), a test checks).
const DescriptorSet& builtin_descriptors();
// The embedded sources themselves (file names like "targets/wasm.json").
const std::vector<DescriptorSource>& builtin_descriptor_sources();

// The platform the driver was compiled for: what the host descriptor resolves to.
struct HostPlatform {
  std::string goos;
  std::string goarch;
  std::string triple;
  DataModel data_model;
};
const HostPlatform& host_platform();

}  // namespace llgo_wasm
