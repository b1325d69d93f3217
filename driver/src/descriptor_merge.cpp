// Merging layers along `inherits` (see descriptor_merge.hpp).
#include "descriptor_merge.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "descriptor_schema.hpp"
#include "suggest.hpp"

namespace llgo_wasm::detail {

std::string read_descriptor_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DriverError(path + ": cannot read the target descriptor (does the file exist?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void merge_into(LeafMap& merged, const LeafMap& layer) {
  for (const auto& [path, leaf] : layer) {
    auto existing = merged.find(path);
    if (!leaf.list) {
      merged[path] = leaf;  // scalars override
      continue;
    }
    if (existing == merged.end()) {
      // A list can still hold duplicates within one file.
      existing = merged.emplace(path, Leaf{nlohmann::json::array(), leaf.where, {}, true}).first;
    }
    Leaf& list = existing->second;
    for (std::size_t i = 0; i < leaf.value.size(); ++i) {
      const nlohmann::json& item = leaf.value[i];
      const Location& item_location = leaf.item_locations[i];
      bool duplicate = false;
      for (std::size_t j = 0; j < list.value.size(); ++j) {
        if (list.value[j] != item) continue;
        if (list.item_locations[j] == item_location) {
          duplicate = true;  // the same definition, inherited along two paths
          break;
        }
        throw DriverError(item_location, "\"" + dotted(path) + "\" already contains " + item.dump() + " (from " +
                                             list.item_locations[j].to_string() +
                                             "); lists append along `inherits`, so list each value once");
      }
      if (!duplicate) {
        list.value.push_back(item);
        list.item_locations.push_back(item_location);
      }
    }
  }
}

MergedLeaves LayerMerger::merge(const Layer& layer) {
  MergedLeaves merged;
  chain_.push_back(layer.name);
  for (const auto& parent : layer.parents) {
    const Layer& parent_layer = find_parent(layer, parent);
    if (std::find(chain_.begin(), chain_.end(), parent_layer.name) != chain_.end()) {
      throw DriverError(parent.where, "inheritance cycle: " + join(chain_, " -> ") + " -> " + parent_layer.name);
    }
    MergedLeaves inherited = merge(parent_layer);
    merge_into(merged.leaves, inherited.leaves);
    for (auto& file : inherited.files) {
      if (std::find(merged.files.begin(), merged.files.end(), file) == merged.files.end()) merged.files.push_back(file);
    }
  }
  chain_.pop_back();
  merge_into(merged.leaves, layer.leaves);
  merged.files.push_back(layer.file_name);
  return merged;
}

const Layer& LayerMerger::find_parent(const Layer& child, const Parent& parent) {
  const std::string& reference = parent.reference;
  bool is_path = reference.size() > 5 && reference.compare(reference.size() - 5, 5, ".json") == 0;
  if (is_path) {
    std::filesystem::path path = std::filesystem::path(child.file_name).parent_path() / reference;
    std::string key = path.lexically_normal().string();
    if (auto found = loaded_.find(key); found != loaded_.end()) return found->second;
    std::string text;
    try {
      text = read_descriptor_file(key);
    } catch (const DriverError&) {
      throw DriverError(parent.where, "parent \"" + reference + "\" not found (looked for " + key + ")");
    }
    return loaded_.emplace(key, parse_layer(DescriptorSource{key, text})).first->second;
  }
  if (auto found = layers_.find(reference); found != layers_.end()) return found->second;
  for (const auto& [key, layer] : loaded_) {
    if (layer.name == reference) return layer;
  }
  std::vector<std::string> names;
  for (const auto& [name, layer] : layers_) names.push_back(name);
  throw DriverError(parent.where, "unknown parent \"" + reference + "\"" + did_you_mean(reference, names) +
                                      "; known descriptors: " + join(names));
}

}  // namespace llgo_wasm::detail
