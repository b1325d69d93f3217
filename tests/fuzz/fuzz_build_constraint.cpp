// libFuzzer target: a //llgo:build expression -> parse -> evaluate. A DriverError is a
// correct answer. An expression that parses must evaluate the same after a round trip
// through its canonical text, for every subset of the tags it names (up to 8 tags). The
// canonical text spaces every token, so it can be up to twice as long as what was written: one
// longer than the parser's limit is not parsed again (the parser refuses it, as it must refuse
// such a line from a user; the fuzzer found a 3,571-byte expression whose canonical text was
// over 4,096).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/build_constraint.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/input_limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using llgo_wasm::BuildConstraint;
  const std::string expression(reinterpret_cast<const char*>(data), size);
  std::optional<BuildConstraint> constraint;
  try {
    constraint = BuildConstraint::parse(expression, {"fuzz.c", 1, 14});
  } catch (const llgo_wasm::DriverError&) {
    return 0;
  }
  if (constraint->text().size() > llgo_wasm::limits::kMaxConstraintLength) return 0;
  BuildConstraint reparsed = BuildConstraint::parse(constraint->text());
  std::vector<std::string> names = constraint->tags();
  if (reparsed.tags() != names) std::abort();
  names.resize(std::min<std::size_t>(names.size(), 8));
  for (unsigned mask = 0; mask < (1u << names.size()); ++mask) {
    std::vector<std::string> tags;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (mask & (1u << i)) tags.push_back(names[i]);
    }
    std::sort(tags.begin(), tags.end());
    if (constraint->evaluate(tags) != reparsed.evaluate(tags)) {
      std::fprintf(stderr, "\"%s\" and its canonical text \"%s\" disagree\n", expression.c_str(), constraint->text().c_str());
      std::abort();
    }
  }
  return 0;
}
