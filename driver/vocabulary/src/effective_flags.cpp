// What consumers build with, derived from a spec (see target.hpp), and placeholder
// substitution for the flags and commands that name the llgo-wasm root.
#include <algorithm>
#include <array>
#include <cctype>

#include "llgo_wasm/target.hpp"
#include "llgo_wasm/target_capabilities.hpp"

namespace llgo_wasm {
namespace {

bool is_unix_goos(std::string_view goos) {
  // Go's own list (go/build: unixOS).
  static constexpr std::array<std::string_view, 12> kUnix = {"aix",   "android", "darwin", "dragonfly",
                                                              "freebsd", "hurd", "illumos", "ios",
                                                              "linux", "netbsd", "openbsd", "solaris"};
  return std::find(kUnix.begin(), kUnix.end(), goos) != kUnix.end();
}

}  // namespace

EffectiveFlags effective_flags(const TargetSpec& spec) {
  EffectiveFlags effective;
  std::vector<std::string>& tags = effective.build_tags;
  tags.reserve(spec.build_tags.size() + 6);
  tags = spec.build_tags;
  tags.push_back(spec.goos);
  tags.push_back(spec.goarch);
  tags.push_back("llgo");
  if (is_unix_goos(spec.goos)) tags.push_back("unix");
  tags.push_back(context_build_tag(spec.capabilities.context));
  tags.push_back(stacks_build_tag(spec.capabilities.stacks));
  // The runtime links a collector only where it can find every root (gc_marksweep.c; elsewhere
  // gc_refused.c makes a program that allocates collected memory fail to link).
  if (target_has_capability(spec, "gc-roots")) tags.push_back("llgo.gc_roots");
  std::sort(tags.begin(), tags.end());
  tags.erase(std::unique(tags.begin(), tags.end()), tags.end());

  effective.cflags = spec.cflags;
  if (auto context = spec.context_cflags.find(spec.capabilities.context); context != spec.context_cflags.end()) {
    effective.cflags.insert(effective.cflags.end(), context->second.begin(), context->second.end());
  }
  // The runtime and the programs read the cap from the same definition.
  if (spec.max_goroutines > 0) effective.cflags.push_back("-DLLGO_MAX_GOROUTINES=" + std::to_string(spec.max_goroutines));
  // The chosen context backend as a macro (LLGO_CONTEXT_ASYNCIFY, LLGO_CONTEXT_EMSCRIPTEN_FIBER,
  // ...), for C code that must know its backend at compile time.
  std::string context_macro = "-DLLGO_CONTEXT_";
  for (char c : spec.capabilities.context) {
    context_macro += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  effective.cflags.push_back(context_macro);
  // The context offers a direct hand-off (runtime/src/wasmcontext.h), which the scheduler takes.
  if (target_has_capability(spec, "context-handoff")) effective.cflags.push_back("-DLLGO_WASMCONTEXT_HANDOFF=1");
  effective.ldflags = spec.ldflags;
  if (!spec.environments.empty()) {
    // Emscripten takes the list as one setting; derived here so it is written once.
    std::string setting = "-sENVIRONMENT=";
    for (std::size_t i = 0; i < spec.environments.size(); ++i) setting += (i ? "," : "") + spec.environments[i];
    effective.ldflags.push_back(setting);
  }
  if (const auto removelist = chosen_asyncify_removelist(spec);
      !removelist.empty() && spec.capabilities.asyncify == AsyncifyMode::Emscripten) {
    // emcc runs Asyncify itself; a post-link plan passes the list to wasm-opt instead. Under a
    // context on engine stacks (jspi: -sJSPI) there is no Asyncify pass, but the setting also keeps
    // emcc from stripping the name section the link's stack check finds the runtime by
    // (docs/link-pipeline.md, The stack check).
    std::string setting = "-sASYNCIFY_REMOVE=";
    for (std::size_t i = 0; i < removelist.size(); ++i) setting += (i ? "," : "") + removelist[i];
    effective.ldflags.push_back(setting);
  }
  if (auto context = spec.context_ldflags.find(spec.capabilities.context); context != spec.context_ldflags.end()) {
    effective.ldflags.insert(effective.ldflags.end(), context->second.begin(), context->second.end());
  }
  return effective;
}

std::vector<std::string> chosen_asyncify_removelist(const TargetSpec& spec) {
  std::vector<std::string> names = spec.asyncify_removelist;
  if (auto context = spec.context_asyncify_removelist.find(spec.capabilities.context);
      context != spec.context_asyncify_removelist.end()) {
    names.insert(names.end(), context->second.begin(), context->second.end());
  }
  return names;
}

const ProgramMerge& chosen_context_merge(const TargetSpec& spec) {
  static const ProgramMerge kNothing;
  auto found = spec.context_merge.find(spec.capabilities.context);
  return found == spec.context_merge.end() ? kNothing : found->second;
}

std::string substitute(std::string text, std::string_view placeholder, std::string_view value) {
  for (std::size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
  return text;
}

}  // namespace llgo_wasm
