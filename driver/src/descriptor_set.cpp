// DescriptorSet: loads descriptor files into layers (descriptor_layer), merges each concrete
// one with its parents (descriptor_merge), turns the merged values into a TargetSpec with the
// same reader that reads resolved targets (spec_from_json), and checks it with the named
// rules (descriptor_rules). Set-level checks: unique names equal to the file names, and at
// most one platform default per GOOS/GOARCH/requires-env.
#include "llgo_wasm/descriptors.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include <nlohmann/json.hpp>

#include "descriptor_layer.hpp"
#include "descriptor_merge.hpp"
#include "descriptor_rules.hpp"
#include "descriptor_schema.hpp"

namespace llgo_wasm {
namespace {

using nlohmann::json;
using namespace detail;

// Positions of a merged descriptor's values: a value's own location, else the descriptor's name.
class LeafPositions : public DescriptorPositions {
 public:
  LeafPositions(const LeafMap& leaves, const Layer& layer, const std::vector<std::string>& files)
      : leaves_(leaves), layer_(layer), files_(files) {}

  Location value(const std::string& path) const override {
    if (path == "requires-env") return layer_.required_environment_location;
    auto found = leaves_.find(path);
    return found == leaves_.end() ? layer_.name_location : found->second.where;
  }
  Location item(const std::string& path, std::size_t index) const override {
    auto found = leaves_.find(path);
    if (found == leaves_.end() || index >= found->second.item_locations.size()) return value(path);
    return found->second.item_locations[index];
  }
  std::size_t rank(const std::string& path) const override {
    auto file = std::find(files_.begin(), files_.end(), value(path).file);
    return static_cast<std::size_t>(file - files_.begin());
  }

 private:
  const LeafMap& leaves_;
  const Layer& layer_;
  const std::vector<std::string>& files_;
};

// The merged leaves as one descriptor-shaped document.
json document_of(const LeafMap& leaves) {
  json document = json::object();
  for (const auto& [path, leaf] : leaves) {
    json* node = &document;
    std::size_t start = 0;
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', start)) {
      node = &(*node)[path.substr(start, slash - start)];
      start = slash + 1;
    }
    (*node)[path.substr(start)] = leaf.value;
  }
  return document;
}

TargetDescriptor concrete_descriptor(const Layer& layer, LayerMerger& merger) {
  if (layer.is_abstract) {
    throw DriverError(layer.name_location,
                      "descriptor \"" + layer.name + "\" is abstract: inherit from it in a concrete descriptor instead of resolving it");
  }
  const MergedLeaves& merged = merger.merge(layer);
  json document = document_of(merged.leaves);
  bool host = document.value("host", false);
  document.erase("host");
  if (host) {
    for (const char* path : {"goos", "goarch", "triple", "data-model/pointer", "data-model/long", "data-model/ssize_t"}) {
      if (auto leaf = merged.leaves.find(path); leaf != merged.leaves.end()) {
        throw DriverError(leaf->second.where, "\"" + dotted(path) +
                                                  "\" cannot be set on a host descriptor: it comes from the platform the driver was built for");
      }
    }
    const HostPlatform& platform = host_platform();
    document["goos"] = platform.goos;
    document["goarch"] = platform.goarch;
    document["triple"] = platform.triple;
    document["data-model"] = {{"pointer", platform.data_model.pointer},
                              {"long", platform.data_model.long_size},
                              {"ssize_t", platform.data_model.ssize_t_size}};
  }
  document["name"] = layer.name;

  TargetDescriptor descriptor;
  try {
    descriptor.spec = spec_from_json(document);
  } catch (const MissingFieldError& missing) {
    throw DriverError(layer.name_location, "descriptor \"" + layer.name + "\" sets no \"" + missing.path +
                                               "\" (set it here or in a parent, or mark the descriptor \"abstract\": true)");
  }
  LeafPositions positions(merged.leaves, layer, merged.files);
  check_descriptor_rules({descriptor.spec, host, layer.platform_default, layer.required_environment, positions});
  descriptor.platform_default = layer.platform_default;
  descriptor.required_environment = layer.required_environment;
  // A resolved target loaded again keeps the files its values came from.
  descriptor.files = layer.recorded_files.empty() ? merged.files : layer.recorded_files;
  descriptor.recorded_environment = layer.recorded_environment;
  return descriptor;
}

}  // namespace

struct DescriptorSet::Impl {
  std::vector<TargetDescriptor> targets;
  // Every layer, abstract ones too, by name: parsed at load, or on first need for a set made
  // from precompiled descriptors (only custom descriptors that inherit from the set need them).
  const std::map<std::string, Layer>& layers() const {
    std::call_once(layers_parsed, [&] {
      for (const auto& source : *unparsed_sources) {
        Layer layer = parse_layer(source);
        std::string name = layer.name;
        parsed_layers.emplace(std::move(name), std::move(layer));
      }
    });
    return parsed_layers;
  }
  const std::vector<DescriptorSource>* unparsed_sources = nullptr;
  mutable std::once_flag layers_parsed;
  mutable std::map<std::string, Layer> parsed_layers;
};

nlohmann::json targets_to_json(const DescriptorSet& descriptors) {
  json list = json::array();
  for (const auto& target : descriptors.targets()) {
    list.push_back({{"name", target.spec.name},
                    {"variant", target.spec.variant},
                    {"goos", target.spec.goos},
                    {"goarch", target.spec.goarch},
                    {"triple", target.spec.triple},
                    {"platform-default", target.platform_default},
                    {"requires-env", target.required_environment},
                    {"descriptor-files", target.files}});
  }
  return list;
}

std::vector<std::string> descriptor_schema_keys() {
  std::vector<std::string> keys;
  for (const auto& field : DescriptorSchema::embedded().fields()) keys.push_back(field.path);
  return keys;
}

DescriptorSet DescriptorSet::load(const std::vector<DescriptorSource>& sources) {
  auto impl = std::make_shared<Impl>();
  for (const auto& source : sources) {
    Layer layer = parse_layer(source);
    std::string stem = std::filesystem::path(source.file_name).stem().string();
    if (layer.name != stem) {
      throw DriverError(layer.name_location, "descriptor name \"" + layer.name + "\" must match its file name \"" + stem + "\"");
    }
    auto [existing, inserted] = impl->parsed_layers.emplace(layer.name, layer);
    if (!inserted) {
      throw DriverError(layer.name_location, "descriptor \"" + layer.name + "\" is also defined in " + existing->second.file_name);
    }
  }
  std::call_once(impl->layers_parsed, [] {});  // parsed above
  ParentSearch search;
  for (const auto& source : sources) {
    auto roots = parent_search_for(source.file_name, {}).roots;
    search.roots.insert(search.roots.end(), roots.begin(), roots.end());
  }
  LayerMerger merger(impl->parsed_layers, std::move(search));
  for (const auto& [name, layer] : impl->parsed_layers) {
    if (!layer.is_abstract) {
      impl->targets.push_back(concrete_descriptor(layer, merger));
    } else {
      merger.merge(layer);  // abstract layers must still merge cleanly
    }
  }
  // Plain GOOS/GOARCH must pick one descriptor, never two.
  for (std::size_t i = 0; i < impl->targets.size(); ++i) {
    for (std::size_t j = i + 1; j < impl->targets.size(); ++j) {
      const auto& a = impl->targets[i];
      const auto& b = impl->targets[j];
      if (a.platform_default && b.platform_default && a.spec.goos == b.spec.goos && a.spec.goarch == b.spec.goarch &&
          a.required_environment == b.required_environment) {
        throw DriverError(impl->parsed_layers.at(b.spec.name).name_location,
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
  return load_source(DescriptorSource{path, read_descriptor_file(path)}, search_path);
}

TargetDescriptor DescriptorSet::load_source(const DescriptorSource& source,
                                            const std::vector<std::string>& search_path) const {
  Layer layer = parse_layer(source);
  LayerMerger merger(impl_->layers(), parent_search_for(source.file_name, search_path));
  return concrete_descriptor(layer, merger);
}

std::vector<std::uint8_t> DescriptorSet::precompiled() const {
  json list = json::array();
  for (const auto& target : impl_->targets) {
    list.push_back({{"spec", spec_to_json(target.spec)},
                    {"platform-default", target.platform_default},
                    {"requires-env", target.required_environment},
                    {"descriptor-files", target.files}});
  }
  return json::to_cbor(list);
}

DescriptorSet DescriptorSet::from_precompiled(const std::uint8_t* data, std::size_t size,
                                              const std::vector<DescriptorSource>& sources) {
  auto impl = std::make_shared<Impl>();
  for (const auto& entry : json::from_cbor(data, data + size)) {
    impl->targets.push_back({.spec = spec_from_json(entry.at("spec")),
                             .platform_default = entry.at("platform-default").get<bool>(),
                             .required_environment = entry.at("requires-env").get<std::map<std::string, std::string>>(),
                             .files = entry.at("descriptor-files").get<std::vector<std::string>>(),
                             .recorded_environment = std::nullopt});
  }
  impl->unparsed_sources = &sources;
  DescriptorSet set;
  set.impl_ = std::move(impl);
  return set;
}

}  // namespace llgo_wasm
