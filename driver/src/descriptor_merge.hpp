// Merging a Layer with its parents along `inherits`: each parent fully merged with its own
// parents, in order, then the layer itself. Scalars override, lists append; a list value
// that appears twice is an error naming both places, unless it is the very same definition
// reached twice (diamond inheritance). Parents are built-in names (abstract ones too) or
// .json paths relative to the child's file, confined to the roots of a ParentSearch
// (descriptor_parent_path.hpp); a missing parent, a cycle or a path longer than
// limits::kMaxInheritanceDepth is an error at the `inherits` value. One merger merges each
// layer once, however many paths reach it (without that, diamonds stacked n deep cost 2^n
// merges).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "descriptor_layer.hpp"
#include "descriptor_parent_path.hpp"

namespace llgo_wasm::detail {

struct MergedLeaves {
  LeafMap leaves;
  std::vector<std::string> files;  // parents first, the layer's own file last
  std::size_t depth = 1;           // descriptors on the longest inheritance path, this one included
};

class LayerMerger {
 public:
  // `layers`: the set's layers by name; they, and every layer passed to merge, must outlive
  // the merger (results are kept by the layer's address). `search`: where file parents may be.
  LayerMerger(const std::map<std::string, Layer>& layers, ParentSearch search)
      : layers_(layers), search_(std::move(search)) {}
  const MergedLeaves& merge(const Layer& layer);

 private:
  const Layer& find_parent(const Layer& child, const Parent& parent);

  const std::map<std::string, Layer>& layers_;
  ParentSearch search_;
  std::map<std::string, Layer> loaded_;           // parents read from disk, by normalized path
  std::map<const Layer*, MergedLeaves> merged_;   // every layer merged so far
  std::vector<std::string> chain_;                // descriptors being merged: cycles, and the depth bound
};

// Applies `layer` on top of `merged` (scalars override, lists append).
void merge_into(LeafMap& merged, const LeafMap& layer);

// The text of a descriptor file (at most one byte past limits::kMaxDescriptorBytes: enough
// for the parser to refuse it), or a DriverError that says it cannot be read.
std::string read_descriptor_file(const std::string& path);

}  // namespace llgo_wasm::detail
