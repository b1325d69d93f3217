// Merging a Layer with its parents along `inherits`: each parent fully merged with its own
// parents, in order, then the layer itself. Scalars override, lists append; a list value
// that appears twice is an error naming both places, unless it is the very same definition
// reached twice (diamond inheritance). Parents are built-in names (abstract ones too) or
// .json paths relative to the child's file; a missing parent or a cycle is an error at the
// `inherits` value.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "descriptor_layer.hpp"

namespace llgo_wasm::detail {

struct MergedLeaves {
  LeafMap leaves;
  std::vector<std::string> files;  // parents first, the layer's own file last
};

class LayerMerger {
 public:
  // `layers`: the set's layers by name; they must outlive the merger.
  explicit LayerMerger(const std::map<std::string, Layer>& layers) : layers_(layers) {}
  MergedLeaves merge(const Layer& layer);

 private:
  const Layer& find_parent(const Layer& child, const Parent& parent);

  const std::map<std::string, Layer>& layers_;
  std::map<std::string, Layer> loaded_;  // parents read from disk by relative path, by normalized path
  std::vector<std::string> chain_;       // descriptors being merged, to report cycles
};

// Applies `layer` on top of `merged` (scalars override, lists append).
void merge_into(LeafMap& merged, const LeafMap& layer);

// The text of a descriptor file, or a DriverError that says it cannot be read.
std::string read_descriptor_file(const std::string& path);

}  // namespace llgo_wasm::detail
