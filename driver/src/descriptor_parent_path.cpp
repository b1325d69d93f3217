// See descriptor_parent_path.hpp.
#include "descriptor_parent_path.hpp"

#include <algorithm>

namespace llgo_wasm::detail {
namespace fs = std::filesystem;

namespace {

fs::path canonical_form(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) return path.lexically_normal();
  fs::path canonical = fs::weakly_canonical(absolute, error);
  return error ? absolute.lexically_normal() : canonical;
}

bool is_inside(const fs::path& path, const fs::path& root) {
  auto mismatch = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  // A trailing empty component ("dir/") matches anything.
  return mismatch.first == root.end() || (std::next(mismatch.first) == root.end() && mismatch.first->empty());
}

std::string quoted_roots(const ParentSearch& search) {
  std::string out;
  for (const auto& root : search.roots) out += (out.empty() ? "" : ", ") + root.string();
  return out;
}

}  // namespace

ParentSearch parent_search_for(const std::string& file_name, const std::vector<std::string>& search_path) {
  ParentSearch search;
  fs::path own_directory = fs::path(file_name).parent_path();
  search.roots.push_back(canonical_form(own_directory.empty() ? fs::path(".") : own_directory));
  for (const auto& directory : search_path) {
    search.roots.push_back(canonical_form(directory));
    search.search_path.emplace_back(directory);
  }
  return search;
}

bool is_parent_path(const std::string& reference) {
  return reference.size() > 5 && reference.compare(reference.size() - 5, 5, ".json") == 0;
}

fs::path resolve_parent_path(const std::string& child_file, const std::string& reference, const Location& where,
                             const ParentSearch& search) {
  std::vector<fs::path> candidates;
  fs::path written(reference);
  if (written.is_absolute()) {
    candidates.push_back(written);
  } else {
    candidates.push_back(fs::path(child_file).parent_path() / written);
    for (const auto& directory : search.search_path) candidates.push_back(directory / written);
  }
  std::vector<std::string> looked_at;
  for (const auto& candidate : candidates) {
    fs::path resolved = canonical_form(candidate);
    bool allowed = std::any_of(search.roots.begin(), search.roots.end(),
                               [&](const fs::path& root) { return is_inside(resolved, root); });
    if (!allowed) continue;  // never probed: its existence is none of our business
    std::error_code error;
    if (fs::is_regular_file(resolved, error)) return candidate.lexically_normal();  // as the user wrote it, for messages
    looked_at.push_back(resolved.string());
  }
  if (looked_at.empty()) {
    throw DriverError(where, "parent \"" + reference + "\" is outside the directories descriptors may inherit from (" +
                                 quoted_roots(search) +
                                 "); name a built-in descriptor, use a path inside, or add the directory to the "
                                 "search path (--descriptor-path DIR)");
  }
  std::string list;
  for (const auto& path : looked_at) list += (list.empty() ? "" : ", ") + path;
  throw DriverError(where, "parent \"" + reference + "\" not found (looked for " + list + ")");
}

}  // namespace llgo_wasm::detail
