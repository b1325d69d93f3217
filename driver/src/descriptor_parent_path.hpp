// Where a descriptor's `inherits` may name a file: only inside the directory tree of the
// descriptor the caller loaded, or inside a directory of a search path the caller gave
// explicitly. Absolute paths and "../" are accepted only when they stay inside; symbolic
// links are followed before the check. Whether a path outside exists is never probed, so
// the messages cannot reveal it; the parent's text is never read either.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "llgo_wasm/error.hpp"

namespace llgo_wasm::detail {

struct ParentSearch {
  std::vector<std::filesystem::path> roots;        // canonical; the first is the descriptor's own directory
  std::vector<std::filesystem::path> search_path;  // as given, for relative references
};

// The roots for a descriptor loaded from `file_name`, widened by `search_path`.
ParentSearch parent_search_for(const std::string& file_name, const std::vector<std::string>& search_path);

// Does `reference` (an `inherits` entry) name a file rather than a descriptor?
bool is_parent_path(const std::string& reference);

// The file `reference` names, relative to the inheriting file `child_file` (then to each
// search-path directory), spelled as it was found (for messages); throws DriverError at
// `where` when it is outside every root or is not found inside one.
std::filesystem::path resolve_parent_path(const std::string& child_file, const std::string& reference,
                                          const Location& where, const ParentSearch& search);

}  // namespace llgo_wasm::detail
