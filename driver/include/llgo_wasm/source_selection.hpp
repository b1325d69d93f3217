// Runtime source selection: which files of a runtime directory a target builds.
//
// Every .c, .h, .S and .s file directly in the directory (not in subdirectories)
// carries exactly one line `//llgo:build <expression>` starting at column 1; the
// file is selected when the expression holds for the resolved target's tag set.
// A missing, repeated or malformed constraint line is an error naming file:line.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

struct SourceDecision {
  std::string file;        // relative to the directory, '/'-separated
  bool selected = false;
  std::string constraint;  // the expression as written
  int line = 0;            // of the constraint line
  // Each tag the expression names, with whether the target has it: the "why".
  std::vector<std::pair<std::string, bool>> tag_values;
};

// All candidate files, sorted by name, each with its decision.
std::vector<SourceDecision> select_runtime_sources(const ResolvedTarget& target, const std::filesystem::path& directory);

// {"selected": [files...], "decisions": [{"file", "selected", "constraint", "line", "tags": {tag: bool}}]}
nlohmann::json sources_to_json(const std::vector<SourceDecision>& decisions);

// "selected proc_wasip1.c: wasm && wasip1 && !llgo.wasi_threads  [wasm=yes wasip1=yes llgo.wasi_threads=no]"
std::string explain(const SourceDecision& decision);

}  // namespace llgo_wasm
