// The named capabilities of a resolved target (target_capabilities.hpp).
#include "llgo_wasm/target_capabilities.hpp"

#include <algorithm>

namespace llgo_wasm {
namespace {

// The context backends that run each goroutine on a thread of its own (1:1), the one that
// switches by the runtime's own Asyncify unwind and rewind, and those on engine stacks. Every other backend runs goroutines
// one at a time on one worker. targets/schema.json lists the backends; these are the only traits
// of a backend the build and the tests need beyond what the schema says (its needs and its stack
// modes).
bool threaded(const TargetSpec& spec) { return spec.capabilities.context == "pthread"; }
bool asyncify_switch(const TargetSpec& spec) { return spec.capabilities.context == "asyncify"; }
// The backends whose goroutines run on wasm stacks the engine keeps (typed continuations, JSPI):
// nothing is instrumented, and a longjmp that leaves a goroutine unwinds to its first frame.
bool engine_stacks(const TargetSpec& spec) {
  return spec.capabilities.context == "stack-switching" || spec.capabilities.context == "jspi";
}
// The backends that implement llgo_wasmcontext_handoff (runtime/src/wasmcontext.h): JSPI, where
// every pass through the host loop costs an engine stack switch and a microtask job. The build
// defines LLGO_WASMCONTEXT_HANDOFF from this (effective_flags.cpp), and the scheduler reads the macro.
bool context_handoff(const TargetSpec& spec) { return spec.capabilities.context == "jspi"; }

// Where a suspended goroutine keeps every pointer in linear memory (its stack, its copy, its
// Asyncify data), so a collector running between switches sees them all (docs/gc.md). Not on
// threads (nothing stops a running thread at a safepoint) and not on engine-owned stacks (stack
// switching, JSPI: the engine keeps a suspended goroutine's wasm locals, which no memory scan sees).
bool gc_roots(const TargetSpec& spec) {
  return !threaded(spec) && !engine_stacks(spec);
}

}  // namespace

const std::vector<TargetCapability>& target_capability_vocabulary() {
  static const std::vector<TargetCapability> kVocabulary = {
      {"single-worker", "one worker runs every goroutine, one at a time, switching only when one blocks or yields",
       [](const TargetSpec& spec) { return !threaded(spec); }},
      {"threaded", "every goroutine is a thread of its own, running in parallel", threaded},
      {"shared-stacks", "goroutines run on one shared stack and keep a copy of what they used while parked",
       [](const TargetSpec& spec) { return spec.capabilities.stacks == StackMode::Shared; }},
      {"separate-stacks", "each goroutine (or thread) has a stack of its own",
       [](const TargetSpec& spec) { return spec.capabilities.stacks == StackMode::Separate; }},
      {"asyncify-switch", "the context switches by the runtime's own Asyncify unwind and rewind", asyncify_switch},
      {"engine-stacks", "each goroutine runs on a wasm stack the engine keeps (stack switching, JSPI): no Asyncify",
       engine_stacks},
      {"context-handoff",
       "a goroutine that yields or parks resumes the next runnable one itself (llgo_wasmcontext_handoff), not through the host loop",
       context_handoff},
      {"event-loop", "an idle worker returns to the host's event loop, which re-enters the program",
       [](const TargetSpec& spec) { return triple_is_emscripten(spec.triple); }},
      {"javascript", "the program runs in a JavaScript host (Promises, callbacks)",
       [](const TargetSpec& spec) { return triple_is_emscripten(spec.triple); }},
      {"wasm", "the program is a WebAssembly module", [](const TargetSpec& spec) { return triple_is_wasm(spec.triple); }},
      {"wasi", "the program is a WASI module", [](const TargetSpec& spec) { return triple_is_wasi(spec.triple); }},
      {"gc-roots", "a collector finds every goroutine's pointers in memory at a switch (llgo_gc_alloc is linked; docs/gc.md)",
       gc_roots},
      {"driver-links", "`llgo-wasm link` links the target's executables (WASI modules; programs whose Asyncify emcc runs)",
       [](const TargetSpec& spec) {
         return triple_is_wasi(spec.triple) || spec.capabilities.asyncify == AsyncifyMode::Emscripten;
       }},
  };
  return kVocabulary;
}

std::vector<std::string> target_capabilities(const TargetSpec& spec) {
  std::vector<std::string> names;
  for (const TargetCapability& capability : target_capability_vocabulary())
    if (capability.holds(spec)) names.emplace_back(capability.name);
  return names;
}

bool target_has_capability(const TargetSpec& spec, std::string_view name) {
  for (const TargetCapability& capability : target_capability_vocabulary())
    if (capability.name == name) return capability.holds(spec);
  return false;
}

bool is_target_capability(std::string_view name) {
  const auto& vocabulary = target_capability_vocabulary();
  return std::any_of(vocabulary.begin(), vocabulary.end(),
                     [&](const TargetCapability& capability) { return capability.name == name; });
}

}  // namespace llgo_wasm
