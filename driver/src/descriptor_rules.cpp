// The named consistency rules of a concrete descriptor (see descriptor_rules.hpp).
#include "descriptor_rules.hpp"

#include <algorithm>
#include <cctype>

#include "descriptor_schema.hpp"
#include "environment.hpp"
#include "suggest.hpp"

namespace llgo_wasm::detail {

Location DescriptorPositions::value(const std::string&) const { return {}; }
Location DescriptorPositions::item(const std::string&, std::size_t) const { return {}; }
std::size_t DescriptorPositions::rank(const std::string&) const { return 0; }

namespace {

using Facts = DescriptorFacts;

[[noreturn]] void fail_at(const Location& where, const std::string& message) {
  if (where.file.empty()) throw DriverError(message);
  throw DriverError(where, message);
}
[[noreturn]] void fail(const Facts& d, const std::string& path, const std::string& message) {
  fail_at(d.positions.value(path), message);
}
std::string where(const Facts& d, const std::string& path) { return "set at " + d.positions.value(path).to_string(); }

// Two settings contradict each other: report at the one written later along the inheritance
// chain (usually the user's), naming where the other one was set.
[[noreturn]] void fail_at_later(const Facts& d, const std::string& path_a, const std::string& what_a,
                                const std::string& path_b, const std::string& what_b, const std::string& reason) {
  bool b_is_later = d.positions.rank(path_b) > d.positions.rank(path_a);
  const std::string& here = b_is_later ? path_b : path_a;
  const std::string& there = b_is_later ? path_a : path_b;
  fail(d, here, (b_is_later ? what_b : what_a) + " cannot be combined with " + (b_is_later ? what_a : what_b) + " (" +
                    where(d, there) + "): " + reason);
}

bool is_wasm(const Facts& d) { return triple_is_wasm(d.spec.triple); }
bool is_emscripten(const Facts& d) { return triple_is_emscripten(d.spec.triple); }
bool is_wasi(const Facts& d) { return triple_is_wasi(d.spec.triple) || d.spec.goos == "wasip1"; }

// ---- data model ----

void pointer_matches_triple(const Facts& d) {
  if (d.host) return;
  int width = triple_pointer_width(d.spec.triple);
  if (width != 0 && d.spec.data_model.pointer != width) {
    fail(d, "data-model/pointer", "data-model.pointer is " + std::to_string(d.spec.data_model.pointer) + " but triple \"" +
                                      d.spec.triple + "\" (" + where(d, "triple") + ") has " + std::to_string(width) +
                                      "-byte pointers");
  }
}

void sizes_are_4_or_8(const Facts& d) {
  if (d.host) return;
  for (auto [path, size] : {std::pair{"data-model/pointer", d.spec.data_model.pointer},
                            std::pair{"data-model/long", d.spec.data_model.long_size}}) {
    if (size != 4 && size != 8) fail(d, path, "\"" + dotted(path) + "\" must be 4 or 8, not " + std::to_string(size));
  }
}

void ssize_t_follows_pointer(const Facts& d) {
  const DataModel& model = d.spec.data_model;
  if (d.host || model.ssize_t_size == model.pointer) return;
  fail(d, "data-model/ssize_t", "data-model.ssize_t is " + std::to_string(model.ssize_t_size) +
                                    " but must follow the pointer width (" + std::to_string(model.pointer) +
                                    "), or write() gets an i32/i64 signature mismatch");
}

void long_fits_pointer(const Facts& d) {
  const DataModel& model = d.spec.data_model;
  if (d.host || model.long_size <= model.pointer) return;
  fail(d, "data-model/long", "data-model.long (" + std::to_string(model.long_size) + ") cannot be wider than a pointer (" +
                                 std::to_string(model.pointer) + ")");
}

// ---- memory64 ----

void memory64_not_on_wasi(const Facts& d) {
  if (!d.spec.capabilities.memory64 || !is_wasi(d)) return;
  fail(d, "capabilities/memory64", "capabilities.memory64 is true on a WASI target (triple \"" + d.spec.triple +
                                       "\"): WASI sysroots are wasm32 only; use an Emscripten target such as js-wasm for Memory64");
}

void memory64_matches_triple(const Facts& d) {
  bool memory64 = d.spec.capabilities.memory64;
  if (is_wasm(d) && memory64 != (d.spec.triple.rfind("wasm64", 0) == 0)) {
    fail(d, "capabilities/memory64", std::string("capabilities.memory64 is ") + (memory64 ? "true" : "false") +
                                         " but triple \"" + d.spec.triple + "\" (" + where(d, "triple") + ") is " +
                                         (memory64 ? "wasm32" : "wasm64") + "; Memory64 goes with wasm64 triples only");
  }
  if (!is_wasm(d) && memory64) fail(d, "capabilities/memory64", "capabilities.memory64 is only meaningful for wasm64 triples");
}

// ---- Asyncify ----

void post_link_asyncify_excludes_threads(const Facts& d) {
  const Capabilities& caps = d.spec.capabilities;
  if (caps.asyncify != AsyncifyMode::PostLink || !caps.threads) return;
  fail_at_later(d, "capabilities/asyncify", "capabilities.asyncify \"post-link\"", "capabilities/threads",
                "capabilities.threads true", "Asyncify instruments a single stack and is unsafe with shared-memory threads");
}

void asyncify_fits_triple(const Facts& d) {
  AsyncifyMode mode = d.spec.capabilities.asyncify;
  if (mode == AsyncifyMode::Emscripten && !is_emscripten(d)) {
    fail(d, "capabilities/asyncify", "capabilities.asyncify \"emscripten\" needs an Emscripten triple, not \"" + d.spec.triple + "\"");
  }
  if (mode == AsyncifyMode::PostLink && !is_wasm(d)) {
    fail(d, "capabilities/asyncify", "capabilities.asyncify \"post-link\" needs a wasm triple, not \"" + d.spec.triple + "\"");
  }
}

void asyncify_imports_need_post_link(const Facts& d) {
  AsyncifyMode mode = d.spec.capabilities.asyncify;
  if (d.spec.asyncify_imports.empty() || mode == AsyncifyMode::PostLink) return;
  fail(d, "asyncify-imports", "\"asyncify-imports\" only matter to a post-link Asyncify, but capabilities.asyncify is \"" +
                                  std::string(to_string(mode)) + "\"");
}

// ---- contexts ----

void default_context_is_supported(const Facts& d) {
  const Capabilities& caps = d.spec.capabilities;
  const auto& supported = caps.supported_contexts;
  if (std::find(supported.begin(), supported.end(), caps.context) != supported.end()) return;
  fail(d, "capabilities/context/default",
       "default context \"" + caps.context + "\" is not among the supported ones (" + join(supported) + ")");
}

// What each backend needs comes from targets/schema.json ($defs/context/x-llgo-needs), so a new
// backend is described there, not here.
void contexts_fit_target(const Facts& d) {
  const auto& needs = DescriptorSchema::embedded().context_needs();
  const auto& supported = d.spec.capabilities.supported_contexts;
  nlohmann::json facts = spec_to_json(d.spec);
  facts["triple-is-wasm"] = is_wasm(d);
  facts["triple-is-emscripten"] = is_emscripten(d);
  facts["triple-is-wasi"] = triple_is_wasi(d.spec.triple);
  facts["javascript-host"] = is_emscripten(d) || std::any_of(d.spec.engines.begin(), d.spec.engines.end(), [](const auto& engine) {
    const auto& provides = engine.second.provides;
    return std::find(provides.begin(), provides.end(), "jspi") != provides.end();
  });
  for (std::size_t i = 0; i < supported.size(); ++i) {
    auto need = needs.find(supported[i]);
    if (need == needs.end()) continue;
    const nlohmann::json& value = facts[nlohmann::json::json_pointer("/" + need->second.key)];
    if (std::find(need->second.one_of.begin(), need->second.one_of.end(), value) != need->second.one_of.end()) continue;
    bool triple = need->second.key.rfind("triple-is-", 0) == 0;
    bool host = need->second.key == "javascript-host";
    std::string path = triple || host ? "triple" : need->second.key;
    std::string actual = host     ? "the triple is \"" + d.spec.triple + "\" and no engine provides \"jspi\""
                         : triple ? "the triple is \"" + d.spec.triple + "\""
                                  : dotted(path) + " is " + value.dump();
    fail_at(d.positions.item("capabilities/context/supported", i),
            "context \"" + supported[i] + "\" needs " + need->second.what + ", but " + actual + " (" + where(d, path) + ")");
  }
}

void context_flags_name_supported_contexts(const Facts& d) {
  const auto& supported = d.spec.capabilities.supported_contexts;
  using FlagMap = std::map<ContextBackend, std::vector<std::string>>;
  const std::pair<const char*, const FlagMap*> maps[] = {{"context-cflags", &d.spec.context_cflags},
                                                          {"context-ldflags", &d.spec.context_ldflags}};
  for (const auto& [key, map] : maps) {
    for (const auto& [context, flags] : *map) {
      if (std::find(supported.begin(), supported.end(), context) != supported.end()) continue;
      fail(d, std::string(key) + "/" + context,
           std::string(key) + " names context \"" + context + "\", which the target does not support (" + join(supported) + ")");
    }
  }
}

// ---- stacks ----

std::string stack_mode_list(const std::vector<StackMode>& modes) {
  std::vector<std::string> names;
  for (auto mode : modes) names.emplace_back(to_string(mode));
  return join(names);
}

void default_stacks_is_supported(const Facts& d) {
  const Capabilities& caps = d.spec.capabilities;
  const auto& supported = caps.supported_stacks;
  if (std::find(supported.begin(), supported.end(), caps.stacks) != supported.end()) return;
  fail(d, "capabilities/stacks/default", "default stacks \"" + std::string(to_string(caps.stacks)) +
                                             "\" is not among the supported ones (" + stack_mode_list(supported) + ")");
}

// Every supported stack mode must be one some supported context can run (targets/schema.json,
// $defs/context/x-llgo-stacks): shared stacks on a target whose only context is pthread would
// never be used.
void stacks_fit_contexts(const Facts& d) {
  const Capabilities& caps = d.spec.capabilities;
  const auto& schema = DescriptorSchema::embedded();
  for (std::size_t i = 0; i < caps.supported_stacks.size(); ++i) {
    StackMode mode = caps.supported_stacks[i];
    bool runnable = std::any_of(caps.supported_contexts.begin(), caps.supported_contexts.end(), [&](const auto& context) {
      auto modes = schema.context_stacks(context);
      return std::find(modes.begin(), modes.end(), mode) != modes.end();
    });
    if (runnable) continue;
    Location at = d.positions.item("capabilities/stacks/supported", i);
    if (at.file.empty()) at = d.positions.value("capabilities/stacks/default");
    fail_at(at, "stacks \"" + std::string(to_string(mode)) + "\" needs a context backend that can run it, but this target "
                "supports only " + join(caps.supported_contexts) + " (which context runs which mode: "
                "$defs/context/x-llgo-stacks in targets/schema.json)");
  }
}

// ---- exception handling ----

// The target's models and each context's own (context-eh), with the key path each is set at.
struct EhAt {
  std::string path;  // "capabilities/eh" or "context-eh/<context>"
  ExceptionModels eh;
};
std::vector<EhAt> every_eh(const Facts& d) {
  std::vector<EhAt> all = {{"capabilities/eh", d.spec.capabilities.eh}};
  for (const auto& [context, eh] : d.spec.context_eh) all.push_back({"context-eh/" + context, eh});
  return all;
}

// Emscripten's JS-assisted model only on Emscripten triples; wasm EH (legacy, exnref) on any
// wasm triple (Emscripten's -sSUPPORT_LONGJMP=wasm too); the host's on native ones.
void eh_models_fit_triple(const Facts& d) {
  for (const auto& [at, eh] : every_eh(d)) {
    for (auto [path, model] : {std::pair{at + "/compile", eh.compile}, std::pair{at + "/final", eh.final}}) {
      bool ok = model == ExceptionModel::None || (model == ExceptionModel::Emscripten && is_emscripten(d)) ||
                ((model == ExceptionModel::Legacy || model == ExceptionModel::Exnref) && is_wasm(d)) ||
                (model == ExceptionModel::Host && !is_wasm(d));
      if (!ok) {
        fail(d, path, "\"" + dotted(path) + "\" cannot be \"" + std::string(to_string(model)) + "\" for triple \"" +
                          d.spec.triple +
                          "\": emscripten is for Emscripten triples, legacy/exnref for wasm triples, host for native ones");
      }
    }
  }
}

// The link translates legacy EH to exnref after every other step (Binaryen's
// --translate-to-exnref, driver/link; emcc's -sWASM_EXNREF): the one change of model it can make.
void eh_translation_is_legacy_to_exnref(const Facts& d) {
  for (const auto& [at, eh] : every_eh(d)) {
    if (eh.compile == eh.final || (eh.compile == ExceptionModel::Legacy && eh.final == ExceptionModel::Exnref)) continue;
    fail(d, at + "/final", dotted(at) + " changes from \"" + std::string(to_string(eh.compile)) + "\" to \"" +
                               std::string(to_string(eh.final)) +
                               "\", but the link can only translate legacy exception handling to exnref");
  }
}

// The published module uses standard exception handling: legacy try/delegate/rethrow is
// deprecated, and standalone engines refuse it (WasmEdge 0.14: "Deprecated 'delegate' instruction").
void eh_final_is_standard(const Facts& d) {
  for (const auto& [at, eh] : every_eh(d)) {
    if (eh.final != ExceptionModel::Legacy) continue;
    fail(d, at + "/final", dotted(at) + ".final is \"legacy\": published modules must use standard exception "
                           "handling (legacy try/delegate/rethrow is deprecated, and engines such as WasmEdge refuse "
                           "it); write \"exnref\": the link translates the compiler's legacy EH");
  }
}

void context_eh_names_supported_contexts(const Facts& d) {
  const auto& supported = d.spec.capabilities.supported_contexts;
  for (const auto& [context, eh] : d.spec.context_eh) {
    if (std::find(supported.begin(), supported.end(), context) != supported.end()) continue;
    fail(d, "context-eh/" + context,
         "context-eh names context \"" + context + "\", which the target does not support (" + join(supported) + ")");
  }
}

// ---- stack switching and merged modules ----

void stack_switching_needs_wasm(const Facts& d) {
  if (!d.spec.capabilities.stack_switching || is_wasm(d)) return;
  fail(d, "capabilities/stack-switching",
       "capabilities.stack-switching is a WebAssembly proposal, but the triple is \"" + d.spec.triple + "\"");
}

void context_merge_names_supported_contexts(const Facts& d) {
  const auto& supported = d.spec.capabilities.supported_contexts;
  for (const auto& [context, merge] : d.spec.context_merge) {
    if (std::find(supported.begin(), supported.end(), context) == supported.end()) {
      fail(d, "context-merge/" + context,
           "context-merge names context \"" + context + "\", which the target does not support (" + join(supported) + ")");
    }
    if (merge.empty()) fail(d, "context-merge/" + context, "context-merge." + context + " merges no modules");
    if (!is_wasm(d)) fail(d, "context-merge/" + context, "context-merge joins WebAssembly modules, but the triple is \"" +
                                                             d.spec.triple + "\"");
  }
}

// ---- flags, output, running ----

void environments_only_on_emscripten(const Facts& d) {
  if (d.spec.environments.empty() || is_emscripten(d)) return;
  fail(d, "environments", "\"environments\" is an Emscripten setting, but the triple is \"" + d.spec.triple + "\"");
}

void placeholders_are_known(const Facts& d) {
  // {root} anywhere; an engine command also {program} and {environment}.
  auto check = [&](const std::string& path, const std::string& text, bool engine) {
    for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
      std::size_t close = text.find('}', open);
      if (close == std::string::npos) return;
      std::string_view word = std::string_view(text).substr(open, close - open + 1);
      if (word == kRootPlaceholder || (engine && (word == kProgramPlaceholder || word == kEnvironmentPlaceholder))) continue;
      fail(d, path, "\"" + dotted(path) + "\" names " + std::string(word) + "; a descriptor may name only " +
                        std::string(kRootPlaceholder) +
                        (engine ? ", " + std::string(kProgramPlaceholder) + " and " + std::string(kEnvironmentPlaceholder) : ""));
    }
  };
  for (const auto& flag : d.spec.cflags) check("cflags", flag, false);
  for (const auto& flag : d.spec.ldflags) check("ldflags", flag, false);
  for (const auto& [context, flags] : d.spec.context_cflags) {
    for (const auto& flag : flags) check("context-cflags/" + context, flag, false);
  }
  for (const auto& [context, flags] : d.spec.context_ldflags) {
    for (const auto& flag : flags) check("context-ldflags/" + context, flag, false);
  }
  for (const auto& [engine, settings] : d.spec.engines) {
    for (const auto& word : settings.command) check("engines/" + engine + "/command", word, true);
  }
  for (const auto& [context, merge] : d.spec.context_merge) {
    for (const auto& module : merge.modules) check("context-merge/" + context + "/modules/" + module.name, module.source, false);
  }
}

void extensions_are_extensions(const Facts& d) {
  auto check = [&](const std::string& extension, const Location& at) {
    if (extension.size() < 2 || extension[0] != '.' || extension.find_first_of("./\\", 1) != std::string::npos) {
      fail_at(at, "\"" + extension + "\" is not a file extension (expected a dot and a word, such as \".wasm\")");
    }
  };
  const OutputPolicy& output = d.spec.output;
  if (!output.default_extension.empty()) check(output.default_extension, d.positions.value("output/default-extension"));
  for (std::size_t i = 0; i < output.accepted_extensions.size(); ++i) {
    check(output.accepted_extensions[i], d.positions.item("output/accepted-extensions", i));
  }
}

void default_extension_is_accepted(const Facts& d) {
  const OutputPolicy& output = d.spec.output;
  const auto& accepted = output.accepted_extensions;
  if (accepted.empty() || std::find(accepted.begin(), accepted.end(), output.default_extension) != accepted.end()) return;
  fail(d, "output/default-extension", "output.default-extension \"" + output.default_extension +
                                          "\" is not among output.accepted-extensions (" + join(accepted) + ")");
}

// The stack sizes are size_t values of the target, and a goroutine's stack comes out of the same
// memory as everything else: more than half the address space can never be allocated (4 TB on
// wasm32 compiled to 0).
void stack_size_fits_address_space(const Facts& d) {
  int pointer = d.spec.data_model.pointer;
  if (pointer != 4 && pointer != 8) return;  // sizes-are-4-or-8 says so
  const std::uint64_t most = std::uint64_t{1} << (8 * pointer - 1);
  for (const auto& [key, size] : {std::pair<const char*, std::uint64_t>{"default-stack-size", d.spec.default_stack_size},
                                  {"separate-stack-size", d.spec.separate_stack_size}}) {
    if (size <= most) continue;
    fail(d, key,
         std::string(key) + " is " + std::to_string(size) + " bytes, more than a target with " + std::to_string(pointer) +
             "-byte pointers can give a goroutine (at most " + std::to_string(most) + ", half its address space)");
  }
}

void stack_size_is_aligned(const Facts& d) {
  for (const auto& [key, size] : {std::pair<const char*, std::uint64_t>{"default-stack-size", d.spec.default_stack_size},
                                  {"separate-stack-size", d.spec.separate_stack_size}}) {
    if (size % 16 == 0) continue;
    fail(d, key, std::string(key) + " must be a multiple of 16 (stack alignment), not " + std::to_string(size));
  }
}

void run_engines_name_engines(const Facts& d) {
  const auto& names = d.spec.run_engines;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (d.spec.engines.count(names[i])) continue;
    std::vector<std::string> known;
    for (const auto& [name, engine] : d.spec.engines) known.push_back(name);
    fail_at(d.positions.item("run-engines", i), "run-engines names \"" + names[i] + "\", which is not an engine of the target (" +
                                                    (known.empty() ? std::string("it has none") : join(known)) + ")");
  }
}

// engines.<name>.contexts names contexts the target supports (an engine that runs none of them
// would never be used; a typo would silently drop the engine from every context).
void engine_contexts_are_supported(const Facts& d) {
  const auto& supported = d.spec.capabilities.supported_contexts;
  for (const auto& [engine, settings] : d.spec.engines) {
    for (std::size_t i = 0; i < settings.contexts.size(); ++i) {
      const std::string& context = settings.contexts[i];
      if (std::find(supported.begin(), supported.end(), context) != supported.end()) continue;
      Location at = d.positions.item("engines/" + engine + "/contexts", i);
      if (at.file.empty()) at = d.positions.value("engines/" + engine);
      fail_at(at, "engine \"" + engine + "\" names context \"" + context + "\" in its contexts, which the target does not "
                  "support (" + join(supported) + "); name supported ones, or drop contexts to run every one");
    }
  }
}

// An engine's test settings agree: a sampled engine (a browser) cannot also run every case, and
// a minimum version is a dotted number (what `TOOL --version` is compared with).
void engine_settings_are_consistent(const Facts& d) {
  for (const auto& [engine, settings] : d.spec.engines) {
    const std::string path = "engines/" + engine;
    if (settings.sampled && settings.every_case) {
      fail(d, path + "/every-case", "engine \"" + engine + "\" is sampled (each run is costly), so it cannot run every case too");
    }
    const std::string& version = settings.minimum_version;
    bool dotted_number = !version.empty() && version.front() != '.' && version.back() != '.' &&
                         version.find("..") == std::string::npos &&
                         version.find_first_not_of("0123456789.") == std::string::npos;
    if (!version.empty() && !dotted_number) {
      fail(d, path + "/minimum-version", "engine \"" + engine + "\": minimum-version \"" + version +
                                             "\" is not a dotted number such as \"24\" or \"0.14\"");
    }
  }
}

void engines_run_the_program(const Facts& d) {
  const auto& accepted = d.spec.output.accepted_extensions;
  for (const auto& [engine, settings] : d.spec.engines) {
    const std::string path = "engines/" + engine;
    if (std::find(settings.command.begin(), settings.command.end(), kProgramPlaceholder) == settings.command.end()) {
      fail(d, path + "/command", "engine \"" + engine + "\" never names the program: put " + std::string(kProgramPlaceholder) +
                                     " where the program goes in its command");
    }
    if (!settings.extension.empty() && !accepted.empty() &&
        std::find(accepted.begin(), accepted.end(), settings.extension) == accepted.end()) {
      fail(d, path + "/extension", "engine \"" + engine + "\" runs " + settings.extension +
                                       " programs, which are not among output.accepted-extensions (" + join(accepted) + ")");
    }
  }
}

void build_tags_are_identifiers(const Facts& d) {
  const auto& tags = d.spec.build_tags;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    bool valid = !tags[i].empty() && std::all_of(tags[i].begin(), tags[i].end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
    if (!valid) fail_at(d.positions.item("build-tags", i), "build tag \"" + tags[i] + "\" is not an identifier (letters, digits, '_' and '.')");
  }
}

// ---- selection by plain GOOS/GOARCH ----

void required_environment_is_wasi_threads(const Facts& d) {
  for (const auto& [variable, value] : d.required_environment) {
    Location at = d.positions.value("requires-env");
    if (variable != wasi_threads_variable().name) {
      fail_at(at, "requires-env can only name " + std::string(wasi_threads_variable().name) + ", not " + variable);
    }
    if (value != "1" && value != "0") fail_at(at, "requires-env " + variable + " must be \"1\" or \"0\", not \"" + value + "\"");
  }
}

void required_environment_needs_platform_default(const Facts& d) {
  if (d.required_environment.empty() || d.platform_default) return;
  fail_at(d.positions.value("requires-env"), "requires-env only matters with \"platform-default\": true");
}

}  // namespace

const std::vector<DescriptorRule>& descriptor_rules() {
  static const std::vector<DescriptorRule> rules = {
      {"pointer-matches-triple", pointer_matches_triple},
      {"sizes-are-4-or-8", sizes_are_4_or_8},
      {"ssize_t-follows-pointer", ssize_t_follows_pointer},
      {"long-fits-pointer", long_fits_pointer},
      {"memory64-not-on-wasi", memory64_not_on_wasi},
      {"memory64-matches-triple", memory64_matches_triple},
      {"post-link-asyncify-excludes-threads", post_link_asyncify_excludes_threads},
      {"asyncify-fits-triple", asyncify_fits_triple},
      {"asyncify-imports-need-post-link", asyncify_imports_need_post_link},
      {"default-context-is-supported", default_context_is_supported},
      {"contexts-fit-target", contexts_fit_target},
      {"context-flags-name-supported-contexts", context_flags_name_supported_contexts},
      {"default-stacks-is-supported", default_stacks_is_supported},
      {"stacks-fit-contexts", stacks_fit_contexts},
      {"eh-models-fit-triple", eh_models_fit_triple},
      {"eh-translation-is-legacy-to-exnref", eh_translation_is_legacy_to_exnref},
      {"eh-final-is-standard", eh_final_is_standard},
      {"context-eh-names-supported-contexts", context_eh_names_supported_contexts},
      {"stack-switching-needs-wasm", stack_switching_needs_wasm},
      {"context-merge-names-supported-contexts", context_merge_names_supported_contexts},
      {"environments-only-on-emscripten", environments_only_on_emscripten},
      {"placeholders-are-known", placeholders_are_known},
      {"extensions-are-extensions", extensions_are_extensions},
      {"default-extension-is-accepted", default_extension_is_accepted},
      {"stack-size-fits-address-space", stack_size_fits_address_space},
      {"stack-size-is-aligned", stack_size_is_aligned},
      {"engines-run-the-program", engines_run_the_program},
      {"run-engines-name-engines", run_engines_name_engines},
      {"engine-settings-are-consistent", engine_settings_are_consistent},
      {"engine-contexts-are-supported", engine_contexts_are_supported},
      {"build-tags-are-identifiers", build_tags_are_identifiers},
      {"required-environment-is-wasi-threads", required_environment_is_wasi_threads},
      {"required-environment-needs-platform-default", required_environment_needs_platform_default},
  };
  return rules;
}

void check_descriptor_rules(const DescriptorFacts& facts) {
  for (const auto& rule : descriptor_rules()) rule.check(facts);
}

}  // namespace llgo_wasm::detail
