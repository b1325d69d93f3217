// Merging layers along `inherits` (see descriptor_merge.hpp).
#include "descriptor_merge.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "descriptor_schema.hpp"
#include "llgo_wasm/input_limits.hpp"
#include "suggest.hpp"

namespace llgo_wasm::detail {

std::string read_descriptor_file(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw DriverError(path + ": is a directory, not a target descriptor (give a descriptor's .json file, or a "
                             "built-in target name: see `llgo-wasm targets`)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DriverError(path + ": cannot read the target descriptor (does the file exist?)");
  std::string text(limits::kMaxDescriptorBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
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
    // Items are unique strings: index them, so a long list costs linear time, not quadratic.
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t j = 0; j < list.value.size(); ++j) index.emplace(list.value[j].get<std::string>(), j);
    for (std::size_t i = 0; i < leaf.value.size(); ++i) {
      const nlohmann::json& item = leaf.value[i];
      const Location& item_location = leaf.item_locations[i];
      auto [found, inserted] = index.emplace(item.get<std::string>(), list.value.size());
      if (!inserted) {
        std::size_t j = found->second;
        if (list.item_locations[j] == item_location) continue;  // the same definition, inherited along two paths
        throw DriverError(item_location, "\"" + dotted(path) + "\" already contains " + item.dump() + " (from " +
                                             list.item_locations[j].to_string() +
                                             "); lists append along `inherits`, so list each value once");
      }
      list.value.push_back(item);
      list.item_locations.push_back(item_location);
    }
  }
}

namespace {

[[noreturn]] void fail_too_deep(const Parent& parent, const std::string& from) {
  throw DriverError(parent.where, "inheritance deeper than " + std::to_string(limits::kMaxInheritanceDepth) +
                                      " levels (the limit) from \"" + from + "\" through \"" + parent.reference + "\"");
}

}  // namespace

const MergedLeaves& LayerMerger::merge(const Layer& layer) {
  if (auto done = merged_.find(&layer); done != merged_.end()) return done->second;
  MergedLeaves merged;
  chain_.push_back(layer.name);
  for (const auto& parent : layer.parents) {
    const Layer& parent_layer = find_parent(layer, parent);
    if (std::find(chain_.begin(), chain_.end(), parent_layer.name) != chain_.end()) {
      throw DriverError(parent.where, "inheritance cycle: " + join(chain_, " -> ") + " -> " + parent_layer.name);
    }
    // The chain bounds this recursion; the memoised depth covers paths merged before.
    if (chain_.size() >= limits::kMaxInheritanceDepth) fail_too_deep(parent, chain_.front());
    const MergedLeaves& inherited = merge(parent_layer);
    if (inherited.depth + 1 > limits::kMaxInheritanceDepth) fail_too_deep(parent, layer.name);
    merged.depth = std::max(merged.depth, inherited.depth + 1);
    merge_into(merged.leaves, inherited.leaves);
    for (const auto& file : inherited.files) {
      if (std::find(merged.files.begin(), merged.files.end(), file) == merged.files.end()) merged.files.push_back(file);
    }
  }
  chain_.pop_back();
  merge_into(merged.leaves, layer.leaves);
  merged.files.push_back(layer.file_name);
  return merged_.emplace(&layer, std::move(merged)).first->second;
}

const Layer& LayerMerger::find_parent(const Layer& child, const Parent& parent) {
  const std::string& reference = parent.reference;
  if (is_parent_path(reference)) {
    std::string key = resolve_parent_path(child.file_name, reference, parent.where, search_).string();
    if (auto found = loaded_.find(key); found != loaded_.end()) return found->second;
    return loaded_.emplace(key, parse_layer(DescriptorSource{key, read_descriptor_file(key)})).first->second;
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
