// Query -> ResolvedTarget. See resolve.hpp for the rules.
#include "llgo_wasm/resolve.hpp"

#include <algorithm>

#include "descriptor_schema.hpp"
#include "environment.hpp"
#include "llgo_wasm/error.hpp"
#include "suggest.hpp"

namespace llgo_wasm {
namespace {

const std::string* environment_value(const Query& query, std::string_view name) {
  auto found = query.environment.find(std::string(name));
  return found == query.environment.end() ? nullptr : &found->second;
}

const std::string* non_empty_environment_value(const Query& query, std::string_view name) {
  const std::string* value = environment_value(query, name);
  return value && !value->empty() ? value : nullptr;
}

bool looks_like_path(const std::string& target) {
  return target.find('/') != std::string::npos ||
         (target.size() > 5 && target.compare(target.size() - 5, 5, ".json") == 0);
}

std::string supported_platforms(const DescriptorSet& descriptors) {
  std::vector<std::string> pairs;
  for (const auto& target : descriptors.targets()) {
    if (!target.platform_default) continue;
    std::string pair = target.spec.goos + "/" + target.spec.goarch;
    for (const auto& [name, value] : target.required_environment) pair += " " + name + "=" + value;
    pairs.push_back(pair + " (" + target.spec.name + ")");
  }
  return detail::join(pairs);
}

const TargetDescriptor& find_named(const DescriptorSet& descriptors, const std::string& name) {
  if (const TargetDescriptor* found = descriptors.find(name)) return *found;
  std::vector<std::string> names = descriptors.names();
  throw DriverError("unknown target \"" + name + "\"" + detail::did_you_mean(name, names) +
                    "; known targets: " + detail::join(names) + " (or a path to a .json descriptor)");
}

const TargetDescriptor& find_platform_default(const DescriptorSet& descriptors, const std::string& goos,
                                              const std::string& goarch, const Query& query) {
  const TargetDescriptor* best = nullptr;
  for (const auto& target : descriptors.targets()) {
    if (!target.platform_default || target.spec.goos != goos || target.spec.goarch != goarch) continue;
    bool holds = std::all_of(target.required_environment.begin(), target.required_environment.end(), [&](const auto& entry) {
      // Only LLGO_WASI_THREADS may be required (the loader checks), so normalize it.
      return detail::normalized_environment_value(detail::wasi_threads_variable(),
                                                  environment_value(query, entry.first)) == entry.second;
    });
    if (holds && (!best || target.required_environment.size() > best->required_environment.size())) best = &target;
  }
  if (!best) {
    throw DriverError("GOOS=" + goos + " GOARCH=" + goarch + " is not a supported target; supported: " +
                      supported_platforms(descriptors) + "; or name one with --target (" +
                      detail::join(descriptors.names()) + ")");
  }
  return *best;
}

ContextBackend choose_context(const TargetSpec& spec, const Query& query) {
  const std::string* requested = query.context ? &*query.context : non_empty_environment_value(query, kEnvContext);
  if (!requested) return spec.capabilities.context;
  std::string source = query.context ? "--context" : std::string(kEnvContext);
  const std::vector<ContextBackend>& supported = spec.capabilities.supported_contexts;
  if (std::find(supported.begin(), supported.end(), *requested) != supported.end()) return *requested;
  // Only now the schema's list of every backend, to tell a typo from an unsupported backend.
  const std::vector<std::string>& all = detail::DescriptorSchema::embedded().context_backends();
  if (std::find(all.begin(), all.end(), *requested) == all.end()) {
    throw DriverError(source + "=" + *requested + " is not a context backend" + detail::did_you_mean(*requested, all) +
                      "; target " + spec.name + " supports " + detail::join(supported));
  }
  throw DriverError(source + "=" + *requested + " is not supported by target " + spec.name + "; it supports " +
                    detail::join(supported));
}

// The stack mode: --stacks, else LLGO_WASM_STACKS, else the descriptor's default. Only the modes
// the chosen context can run count (targets/schema.json, $defs/context/x-llgo-stacks): with a
// context that owns a stack per goroutine the default falls back to the first mode it can run,
// and asking for another one is an error.
void choose_stacks(Capabilities& caps, const std::string& target_name, const Query& query) {
  const std::vector<StackMode> runnable = detail::DescriptorSchema::embedded().context_stacks(caps.context);
  std::vector<StackMode> usable;
  for (auto mode : caps.supported_stacks) {
    if (std::find(runnable.begin(), runnable.end(), mode) != runnable.end()) usable.push_back(mode);
  }
  auto names = [](const std::vector<StackMode>& modes) {
    std::vector<std::string> out;
    for (auto mode : modes) out.emplace_back(to_string(mode));
    return detail::join(out);
  };
  const std::string* requested = query.stacks ? &*query.stacks : non_empty_environment_value(query, kEnvStacks);
  if (!requested) {
    if (std::find(usable.begin(), usable.end(), caps.stacks) == usable.end()) {
      if (usable.empty()) {
        throw DriverError("target " + target_name + " supports stacks " + names(caps.supported_stacks) + ", none of which context " +
                          caps.context + " can run (it runs " + names(runnable) + ")");
      }
      caps.stacks = usable.front();
    }
    caps.supported_stacks = usable;
    return;
  }
  const std::string source = query.stacks ? "--stacks" : std::string(kEnvStacks);
  auto mode = parse_stack_mode(*requested);
  if (!mode) {
    std::vector<std::string> all(stack_mode_names().begin(), stack_mode_names().end());
    throw DriverError(source + "=" + *requested + " is not a stack mode" + detail::did_you_mean(*requested, all) +
                      "; target " + target_name + " supports " + names(caps.supported_stacks));
  }
  if (std::find(caps.supported_stacks.begin(), caps.supported_stacks.end(), *mode) == caps.supported_stacks.end()) {
    throw DriverError(source + "=" + *requested + " is not supported by target " + target_name + "; it supports " +
                      names(caps.supported_stacks));
  }
  if (std::find(usable.begin(), usable.end(), *mode) == usable.end()) {
    throw DriverError(source + "=" + *requested + " cannot be used with context " + caps.context + ", which runs " +
                      names(runnable) + " stacks only (choose another --context, or --stacks " + names(usable) + ")");
  }
  caps.stacks = *mode;
  caps.supported_stacks = usable;
}

// The stack size of the chosen mode: --stack-size, else LLGO_WASM_STACK_SIZE, else the
// descriptor's (default-stack-size for shared stacks, separate-stack-size for separate ones).
void choose_stack_size(TargetSpec& spec, const Query& query) {
  const std::string* requested = query.stack_size ? &*query.stack_size : non_empty_environment_value(query, kEnvStackSize);
  if (!requested) return;
  const std::string source = query.stack_size ? "--stack-size" : std::string(kEnvStackSize);
  const int pointer = spec.data_model.pointer == 4 ? 4 : 8;
  const std::uint64_t size = parse_stack_size(*requested, source, std::uint64_t{1} << (8 * pointer - 1));
  if (spec.capabilities.stacks == StackMode::Shared) {
    spec.default_stack_size = size;
  } else {
    spec.separate_stack_size = size;
  }
}

// The effective value of every variable that selects among this platform's descriptors:
// what the chosen descriptor requires, else the unset meaning. A resolved target loaded
// again keeps the environment it records.
std::map<std::string, std::string> effective_environment(const DescriptorSet& descriptors,
                                                         const TargetDescriptor& descriptor) {
  if (descriptor.recorded_environment) return *descriptor.recorded_environment;
  std::map<std::string, std::string> environment;
  for (const auto& other : descriptors.targets()) {
    if (other.spec.goos != descriptor.spec.goos || other.spec.goarch != descriptor.spec.goarch) continue;
    for (const auto& [name, value] : other.required_environment) {
      auto required = descriptor.required_environment.find(name);
      environment[name] = required != descriptor.required_environment.end()
                              ? required->second
                              : std::string(detail::wasi_threads_variable().unset_means);
    }
  }
  return environment;
}

}  // namespace

std::uint64_t parse_stack_size(const std::string& text, const std::string& source, std::uint64_t most) {
  auto refuse = [&](const std::string& why) -> DriverError {
    return DriverError(source + "=" + text + ": " + why);
  };
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 20) {
    throw refuse("not a stack size (bytes, or a number with K, M or G, e.g. 8388608 or 8M)");
  }
  const std::string suffix = text.substr(digits);
  unsigned shift = 0;
  if (suffix.empty()) shift = 0;
  else if (suffix == "K" || suffix == "k" || suffix == "KiB") shift = 10;
  else if (suffix == "M" || suffix == "m" || suffix == "MiB") shift = 20;
  else if (suffix == "G" || suffix == "g" || suffix == "GiB") shift = 30;
  else throw refuse("unknown unit \"" + suffix + "\" (use K, M or G, or none for bytes)");
  std::uint64_t number = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    if (number > (UINT64_MAX - 9) / 10) throw refuse("too large");
    number = number * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (shift > 0 && number > (UINT64_MAX >> shift)) throw refuse("too large");
  std::uint64_t size = number << shift;
  if (size > UINT64_MAX - 15) throw refuse("too large");
  size = (size + 15) & ~std::uint64_t{15};
  if (size < kMinimumStackSize) {
    throw refuse("less than " + std::to_string(kMinimumStackSize) + " bytes, the least a goroutine's stack can be");
  }
  if (size > most) {
    throw refuse("more than this target can give a goroutine (at most " + std::to_string(most) + " bytes, half its address space)");
  }
  return size;
}

bool query_sets_stack_size(const Query& query) {
  return query.stack_size.has_value() || non_empty_environment_value(query, kEnvStackSize) != nullptr;
}

// Only the engines that run the chosen context (engines.<name>.contexts, absent = every one),
// in engines and run-engines alike: WasmEdge runs no JSPI module.
static void keep_engines_of_context(TargetSpec& spec) {
  const std::string& context = spec.capabilities.context;
  auto runs_context = [&](const Engine& engine) {
    return engine.contexts.empty() || std::find(engine.contexts.begin(), engine.contexts.end(), context) != engine.contexts.end();
  };
  for (auto it = spec.engines.begin(); it != spec.engines.end();) {
    it = runs_context(it->second) ? std::next(it) : spec.engines.erase(it);
  }
  std::erase_if(spec.run_engines, [&](const std::string& name) { return !spec.engines.count(name); });
}

ResolvedTarget resolve_target(const DescriptorSet& descriptors, const Query& query) {
  // Checked whatever the target: a typo here must never silently mean "0".
  const std::string wasi_threads =
      detail::normalized_environment_value(detail::wasi_threads_variable(), environment_value(query, kEnvWasiThreads));

  std::map<std::string, std::string> overridden;
  Origin goos_origin = Origin::Target;
  Origin goarch_origin = Origin::Target;
  TargetDescriptor custom;
  const TargetDescriptor* descriptor = nullptr;

  if (query.target) {
    if (looks_like_path(*query.target)) {
      custom = descriptors.load_file(*query.target, query.descriptor_search_path);
      descriptor = &custom;
    } else {
      descriptor = &find_named(descriptors, *query.target);
    }
    const TargetSpec& spec = descriptor->spec;
    auto reconcile = [&](const std::optional<std::string>& flag, std::string_view variable, const std::string& implied,
                         const char* flag_name) {
      if (flag && *flag != implied) {
        throw DriverError(std::string(flag_name) + "=" + *flag + " contradicts target " + spec.name + ", which implies " +
                          std::string(variable) + "=" + implied + "; drop " + flag_name + " (named targets need no GOOS/GOARCH)");
      }
      const std::string* from_environment = non_empty_environment_value(query, variable);
      if (!flag && from_environment && *from_environment != implied) overridden[std::string(variable)] = *from_environment;
    };
    reconcile(query.goos, kEnvGoos, spec.goos, "--goos");
    reconcile(query.goarch, kEnvGoarch, spec.goarch, "--goarch");
  } else {
    const HostPlatform& host = host_platform();
    auto decide = [&](const std::optional<std::string>& flag, std::string_view variable, const std::string& host_value,
                      Origin& origin) {
      if (flag) {
        origin = Origin::Flag;
        return *flag;
      }
      if (const std::string* value = non_empty_environment_value(query, variable)) {
        origin = Origin::Environment;
        return *value;
      }
      origin = Origin::Host;
      return host_value;
    };
    std::string goos = decide(query.goos, kEnvGoos, host.goos, goos_origin);
    std::string goarch = decide(query.goarch, kEnvGoarch, host.goarch, goarch_origin);
    descriptor = &find_platform_default(descriptors, goos, goarch, query);
  }

  std::map<std::string, std::string> environment = effective_environment(descriptors, *descriptor);
  const std::string* said_wasi_threads = non_empty_environment_value(query, kEnvWasiThreads);
  if (auto effective = environment.find(std::string(kEnvWasiThreads));
      said_wasi_threads && effective != environment.end() && effective->second != wasi_threads) {
    overridden[effective->first] = *said_wasi_threads;  // a named target won over it
  }

  TargetSpec spec = descriptor->spec;
  spec.capabilities.context = choose_context(spec, query);
  // The chosen context's exception-handling models, where it has its own (context-eh).
  if (auto eh = spec.context_eh.find(spec.capabilities.context); eh != spec.context_eh.end()) spec.capabilities.eh = eh->second;
  keep_engines_of_context(spec);
  choose_stacks(spec.capabilities, spec.name, query);
  choose_stack_size(spec, query);
  return ResolvedTarget{
      .spec = std::move(spec),
      .goos_origin = goos_origin,
      .goarch_origin = goarch_origin,
      .environment = std::move(environment),
      .overridden_environment = std::move(overridden),
      .descriptor_files = descriptor->files,
  };
}

}  // namespace llgo_wasm
