// What the link plan asks of a WASI sysroot: which spelling of the triple it lays its libraries
// out under, and whether it has a library (link_sysroot.cpp). The only part of planning that
// reads the file system.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace llgo_wasm {

// The --target spelling to link a WASI triple with: one the sysroot has a lib/<triple> folder
// for (a note says when it differs from `triple`); `triple` itself without a sysroot or a match.
std::string link_triple_for_sysroot(const std::string& triple, const std::optional<std::string>& sysroot,
                                    bool resource_dir_given, std::vector<std::string>& notes);

// Does the sysroot hold lib/<triple>/<file name>?
bool sysroot_has_library(const std::string& sysroot, const std::string& triple, const std::string& file_name);

}  // namespace llgo_wasm
