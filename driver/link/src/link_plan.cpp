// Builds LinkPlans (link_plan.hpp): one builder per kind of output (an archive, a shared
// library, an executable linked by emcc, an executable module linked by clang or the host
// compiler) and the dispatcher that picks one. Printing a plan is link_plan_format.cpp's job,
// probing the sysroot link_sysroot.cpp's.
#include "llgo_wasm/link_plan.hpp"

#include "llgo_wasm/program_merge.hpp"
#include "llgo_wasm/target_capabilities.hpp"
#include "link_sysroot.hpp"

#include <algorithm>
#include <filesystem>

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;

bool has_flag_with_prefix(const std::vector<std::string>& line, const std::vector<std::string>& prefixes) {
  for (const auto& arg : line) {
    for (const auto& prefix : prefixes) {
      if (arg.rfind(prefix, 0) == 0) return true;
    }
  }
  return false;
}

// wasm-opt takes -O, -O0..-O4, -Os, -Oz; map clang's spellings onto those.
std::optional<std::string> wasm_opt_level(const std::string& last) {
  if (last == "-O0") return std::nullopt;
  if (last == "-Ofast") return "-O3";
  if (last == "-Og") return "-O1";
  if (last.size() == 3 && last[2] > '4' && last[2] <= '9') return "-O4";
  return last;
}

// A descriptor flag is one flag with its argument when it takes one ("-mllvm -x"): argv
// words split on spaces, as docs/targets.md says and CMake's "SHELL:" does with them.
std::vector<std::string> descriptor_flag_words(const std::string& flag) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while ((start = flag.find_first_not_of(" \t", start)) != std::string::npos) {
    std::size_t end = flag.find_first_of(" \t", start);
    words.push_back(flag.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end;
  }
  return words;
}

LinkStep make_step(LinkStepKind kind, std::string name, std::vector<std::string> command, std::vector<std::string> inputs,
                   std::vector<std::string> outputs) {
  LinkStep step;
  step.kind = kind;
  step.name = std::move(name);
  step.command = std::move(command);
  step.inputs = std::move(inputs);
  step.outputs = std::move(outputs);
  return step;
}

LinkStep with_expectations(LinkStep step, ModuleExpectations expectations) {
  step.expectations = std::move(expectations);
  return step;
}

// The source a program stack size (--stack-size) becomes: the definition LLGO_STACK_SIZE writes
// (llgo_runtime.h), which the runtime reads through a weak reference (runtime/src/stack_size.c).
std::string stack_size_source(std::uint64_t size) {
  return "/* llgo-wasm link --stack-size: this program's goroutine stack size (llgo_runtime.h, LLGO_STACK_SIZE). */\n"
         "const __SIZE_TYPE__ llgo_stack_size = " + std::to_string(size) + "u;\n";
}

// The level the link line gave, else the descriptor's default (a note says so).
std::optional<std::string> link_optimization_level(const TargetSpec& spec, const LinkArguments& arguments,
                                                   std::vector<std::string>& notes) {
  if (!arguments.stripped_optimization_flags.empty()) return arguments.stripped_optimization_flags.back();
  const std::string& level = spec.link_optimization;
  if (level.empty()) return std::nullopt;
  notes.push_back("no -O on the link line: the target's default " + level + " (descriptor field link-optimization)");
  return level;
}

// The tool-link line (clang, emcc or the host compiler) before its -o: what every output but
// an archive is linked with.
struct LinkLine {
  std::vector<std::string> words;  // the compiler, then its arguments
  bool wasi = false;               // the target's triple is a WASI one
  std::string triple;              // WASI: the --target spelling the sysroot has (link_sysroot.hpp)
  std::optional<std::string> sysroot;
};

// The compiler, the WASI triple and sysroot (unless the link line names its own), -shared, the
// descriptor's ldflags (less -O: the level is decided per output) and the link line.
LinkLine start_link_line(LinkPlan& plan, const TargetSpec& spec, const LinkArguments& arguments,
                         const LinkToolchain& toolchain) {
  LinkLine line;
  line.words = {arguments.compiler.value_or(toolchain.compiler)};
  line.wasi = triple_is_wasi(spec.triple);
  line.sysroot = arguments.sysroot ? arguments.sysroot : toolchain.sysroot;
  const bool user_gave_target = has_flag_with_prefix(arguments.link_line, {"--target", "-target"});
  const bool user_gave_sysroot = has_flag_with_prefix(arguments.link_line, {"--sysroot"});
  if (line.wasi) {
    const bool resource_dir_given = has_flag_with_prefix(arguments.link_line, {"-resource-dir"});
    std::vector<std::string> triple_notes;
    line.triple = link_triple_for_sysroot(spec.triple, line.sysroot, resource_dir_given, triple_notes);
    if (!user_gave_target && !line.triple.empty()) {
      line.words.push_back("--target=" + line.triple);
      plan.notes.insert(plan.notes.end(), triple_notes.begin(), triple_notes.end());
    }
    if (!user_gave_sysroot && line.sysroot) line.words.push_back("--sysroot=" + *line.sysroot);
  }
  if (arguments.kind == LinkOutputKind::shared) line.words.push_back("-shared");
  for (const auto& flag : effective_flags(spec).ldflags) {
    for (auto& word : descriptor_flag_words(flag)) {
      if (is_optimization_flag(word)) continue;
      line.words.push_back(toolchain.llgo_wasm_root ? substitute(word, kRootPlaceholder, *toolchain.llgo_wasm_root) : word);
    }
  }
  line.words.insert(line.words.end(), arguments.link_line.begin(), arguments.link_line.end());
  return line;
}

// An executable's program stack size (--stack-size): the source defining it, written and
// compiled as the target compiles C, its object linked like the program's.
void add_program_stack_size(LinkPlan& plan, LinkLine& line, const TargetSpec& spec, const LinkArguments& arguments,
                            const TemporaryNaming& naming) {
  if (!arguments.program_stack_size) return;
  const std::string folder = temporary_path(arguments.output_path, "stack-size", naming);
  const std::string source = (fs::path(folder) / "llgo_stack_size.c").string();
  const std::string object = (fs::path(folder) / "llgo_stack_size.o").string();
  plan.temporaries.push_back(folder);
  LinkStep write = make_step(LinkStepKind::write_source, "stack-size", {}, {}, {source});
  write.content = stack_size_source(*arguments.program_stack_size);
  plan.steps.push_back(write);
  std::vector<std::string> compile = {line.words.front(), "-c"};
  if (line.wasi) {
    if (!line.triple.empty()) compile.push_back("--target=" + line.triple);
    if (line.sysroot) compile.push_back("--sysroot=" + *line.sysroot);
  }
  for (const auto& flag : effective_flags(spec).cflags) {
    for (auto& word : descriptor_flag_words(flag)) {
      if (!is_optimization_flag(word)) compile.push_back(word);
    }
  }
  compile.insert(compile.end(), {source, "-o", object});
  plan.steps.push_back(make_step(LinkStepKind::compile_source, "compile-stack-size", compile, {source}, {object}));
  line.words.push_back(object);
  plan.notes.push_back("stack size " + std::to_string(*arguments.program_stack_size) +
                       " bytes (--stack-size or LLGO_WASM_STACK_SIZE): compiled into the program as llgo_stack_size");
}

// clang's -O flags the link line lost (link_arguments.hpp), and why.
void note_stripped_optimization_flags(LinkPlan& plan, const LinkArguments& arguments, bool post_link) {
  for (const auto& flag : arguments.stripped_optimization_flags) {
    plan.notes.push_back("removed " + flag + " from the link line: with -O clang runs its own hidden "
                         "wasm-opt at link time" +
                         std::string(post_link ? "; the level goes to the pinned wasm-opt step instead" : ""));
  }
}

// The link into a temporary beside the output (`role` names it), as the next step's input.
std::string add_link_step(LinkPlan& plan, LinkLine line, const LinkArguments& arguments, const std::string& role,
                          const TemporaryNaming& naming) {
  const std::string linked = temporary_path(arguments.output_path, role, naming);
  plan.temporaries.push_back(linked);
  line.words.push_back("-o");
  line.words.push_back(linked);
  plan.steps.push_back(make_step(LinkStepKind::link, "link", line.words, arguments.inputs, {linked}));
  return linked;
}

// An archive: llvm-ar into a temporary, renamed onto the output.
void add_archive_steps(LinkPlan& plan, const LinkArguments& arguments, const LinkToolchain& toolchain,
                       const TemporaryNaming& naming) {
  const std::string archive_temp = temporary_path(arguments.output_path, "ar", naming);
  plan.temporaries.push_back(archive_temp);
  LinkStep archive = make_step(LinkStepKind::archive, "archive", {toolchain.archiver, "rcs", archive_temp}, arguments.inputs, {archive_temp});
  archive.command.insert(archive.command.end(), arguments.inputs.begin(), arguments.inputs.end());
  plan.steps.push_back(archive);
  if (arguments.link_line.size() != arguments.inputs.size()) {
    plan.notes.push_back("flags other than inputs are ignored for an archive");
  }
  plan.steps.push_back(make_step(LinkStepKind::publish_output, "publish", {}, {archive_temp}, {arguments.output_path}));
}

// A shared library: the tool link, renamed onto the output.
void add_shared_library_steps(LinkPlan& plan, const TargetSpec& spec, const LinkArguments& arguments,
                              const LinkToolchain& toolchain, const TemporaryNaming& naming) {
  LinkLine line = start_link_line(plan, spec, arguments, toolchain);
  if (spec.capabilities.asyncify != AsyncifyMode::Emscripten) note_stripped_optimization_flags(plan, arguments, false);
  const std::string linked = add_link_step(plan, std::move(line), arguments, "link", naming);
  plan.steps.push_back(make_step(LinkStepKind::publish_output, "publish", {}, {linked}, {arguments.output_path}));
}

// An Emscripten executable. emcc writes <name>.js and a <name>.wasm the script loads by name,
// so it links into a temporary folder under the output's own name, whose files are then moved
// beside the output. emcc runs Binaryen (and its Asyncify) itself; with narrowed Asyncify or
// the stack check its Binaryen runs through the shim (emscripten_asyncify.hpp).
void add_emscripten_executable_steps(LinkPlan& plan, const TargetSpec& spec, const LinkArguments& arguments,
                                     const LinkToolchain& toolchain, const TemporaryNaming& naming) {
  const std::optional<std::string> level = link_optimization_level(spec, arguments, plan.notes);
  LinkLine line = start_link_line(plan, spec, arguments, toolchain);
  add_program_stack_size(plan, line, spec, arguments, naming);
  std::vector<std::string>& link = line.words;
  // emcc runs Binaryen itself and must see the level; only clang's hidden wasm-opt is avoided.
  if (level) link.push_back(*level);
  if (arguments.asyncify == AsyncifyInstrumentation::none) {
    link.erase(std::remove_if(link.begin() + 1, link.end(),
                              [](const std::string& flag) { return flag.rfind("-sASYNCIFY", 0) == 0; }),
               link.end());
    plan.notes.push_back("Asyncify off (--asyncify none): -sASYNCIFY and its settings removed from the emcc line");
  }

  const std::string folder = temporary_path(arguments.output_path, "emcc", naming);
  plan.temporaries.push_back(folder);
  const std::string emcc_output = (fs::path(folder) / fs::path(arguments.output_path).filename()).string();
  link.push_back("-o");
  link.push_back(emcc_output);
  LinkStep link_step = make_step(LinkStepKind::link, "link", link, arguments.inputs, {emcc_output});
  link_step.create_directories = {folder};
  std::optional<std::string> report;
  const bool narrow = arguments.asyncify == AsyncifyInstrumentation::narrowed;
  if (narrow || arguments.stack_check) {
    if (toolchain.emscripten_binaryen_root && toolchain.driver_executable) {
      const std::string shim = temporary_path(arguments.output_path, "binaryen", naming);
      report = (fs::path(shim) / "asyncify-report.json").string();
      plan.temporaries.push_back(shim);
      LinkStep prepare = make_step(LinkStepKind::prepare_binaryen_shim, "binaryen-shim", {}, {}, {shim, *report});
      prepare.shim = BinaryenShimRequest{*toolchain.emscripten_binaryen_root, *toolchain.driver_executable, narrow,
                                         arguments.stack_check};
      plan.steps.push_back(prepare);
      link_step.environment = {"EM_BINARYEN_ROOT=" + shim};
    } else {
      const std::string why = toolchain.emscripten_binaryen_root ? "this driver cannot name its own executable"
                                                                 : "emcc's Binaryen was not found (em-config BINARYEN_ROOT)";
      if (narrow) plan.notes.push_back("Asyncify not narrowed: " + why + "; emcc's own analysis decides");
      if (arguments.stack_check) plan.notes.push_back("no stack-overflow check: " + why + " (the check runs in the wasm-opt shim)");
    }
  }
  if (arguments.asyncify == AsyncifyInstrumentation::wide) {
    plan.notes.push_back("Asyncify narrowing off: emcc's own analysis decides");
  }
  plan.steps.push_back(link_step);
  if (report) plan.steps.push_back(make_step(LinkStepKind::read_asyncify_report, "asyncify-report", {}, {*report}, {}));
  plan.steps.push_back(make_step(LinkStepKind::publish_folder, "publish", {}, {folder}, {arguments.output_path}));
}

// The context's modules join the program (stack switching: its switch glue); no Asyncify.
// `features` gains the merged modules' Binaryen features. Returns the merged module.
std::string add_merge_step(LinkPlan& plan, const TargetSpec& spec, const LinkArguments& arguments,
                           const LinkToolchain& toolchain, const TemporaryNaming& naming, const std::string& program,
                           std::vector<std::string>& features) {
  ProgramMerge modules = chosen_context_merge(spec);
  for (auto& module : modules.modules) {
    if (toolchain.llgo_wasm_root) module.source = substitute(module.source, kRootPlaceholder, *toolchain.llgo_wasm_root);
  }
  for (const auto& feature : modules.features) {
    if (std::find(features.begin(), features.end(), feature) == features.end()) features.push_back(feature);
  }
  modules.features = features;
  const std::string merged = temporary_path(arguments.output_path, "merged", naming);
  plan.temporaries.push_back(merged);
  std::vector<std::string> inputs = {program};
  for (const auto& module : modules.modules) inputs.push_back(module.source);
  plan.steps.push_back(make_step(LinkStepKind::merge_modules, "merge", wasm_merge_command(modules, toolchain.wasm_merge, program, merged),
                                 inputs, {merged}));
  return merged;
}

// The wasm-opt step after the link: [the Asyncify analysis, then] Asyncify, the merged modules'
// clean-up, the optimisation level, -g, the exnref translation. Returns the final module.
std::string add_wasm_opt_steps(LinkPlan& plan, const ResolvedTarget& target, const LinkArguments& arguments,
                               const LinkToolchain& toolchain, const TemporaryNaming& naming, const std::string& module,
                               const std::vector<std::string>& features, const std::optional<std::string>& level,
                               bool keep_debug_info) {
  const TargetSpec& spec = target.spec;
  const bool asyncify = needs_post_link_asyncify(target);
  const bool merge = needs_program_merge(target);
  const std::string final_module = temporary_path(arguments.output_path, "final", naming);
  plan.temporaries.push_back(final_module);
  std::vector<std::string> wasm_opt = {toolchain.wasm_opt, module};
  for (const auto& flag : binaryen_feature_flags(features)) wasm_opt.push_back(flag);
  const bool translate_exceptions = needs_exception_translation(target);
  std::optional<std::string> asyncify_arguments;
  switch (asyncify ? arguments.asyncify : AsyncifyInstrumentation::none) {
    case AsyncifyInstrumentation::narrowed: {
      std::vector<std::string> switch_imports = default_asyncify_switch_imports();
      switch_imports.insert(switch_imports.end(), spec.asyncify_imports.begin(), spec.asyncify_imports.end());
      switch_imports.insert(switch_imports.end(), arguments.asyncify_imports.begin(), arguments.asyncify_imports.end());
      asyncify_arguments = temporary_path(arguments.output_path, "asyncify-args", naming);
      const std::string list = temporary_path(arguments.output_path, "asyncify-list", naming);
      plan.temporaries.push_back(*asyncify_arguments);
      plan.temporaries.push_back(list);
      LinkStep analysis = make_step(LinkStepKind::analyse_asyncify, "asyncify-analysis", {}, {module}, {*asyncify_arguments, list});
      // The descriptor's asyncify-removelist names functions that never switch although the
      // call graph cannot tell (they reach indirect calls): the analysis stops at them too.
      analysis.narrowing = AsyncifyNarrowingRequest{switch_imports, {}, chosen_asyncify_removelist(spec)};
      plan.steps.push_back(analysis);
      break;
    }
    case AsyncifyInstrumentation::wide:
      wasm_opt.push_back("--asyncify");
      if (const auto removelist = chosen_asyncify_removelist(spec); !removelist.empty()) {
        wasm_opt.push_back(asyncify_removelist_argument(removelist));
      }
      plan.notes.push_back("Asyncify narrowing off: every import and indirect call is assumed to switch");
      break;
    case AsyncifyInstrumentation::none:
      if (asyncify) plan.notes.push_back("Asyncify off (--asyncify none): asyncify.* imports stay, so such a module cannot switch (a baseline)");
      break;
  }
  if (auto removal = remove_internal_exports_flag(chosen_context_merge(spec)); merge && removal) wasm_opt.push_back(*removal);
  const size_t asyncify_arguments_at = wasm_opt.size();
  if (auto wasm_opt_flag = level ? wasm_opt_level(*level) : std::nullopt) wasm_opt.push_back(*wasm_opt_flag);
  // With -g, Binaryen keeps the name section and rewrites the DWARF for the code it changed.
  if (keep_debug_info) wasm_opt.push_back("-g");
  // Order is fixed: Asyncify cannot read exnref, so translate only after instrumenting.
  if (translate_exceptions) wasm_opt.push_back("--translate-to-exnref");
  wasm_opt.push_back("-o");
  wasm_opt.push_back(final_module);
  const std::string name = std::string(asyncify ? "asyncify" : "wasm-opt") + (translate_exceptions ? "+exnref" : "");
  LinkStep optimise = make_step(LinkStepKind::optimise_module, name, wasm_opt, {module}, {final_module});
  // The descriptor's remove-lists name runtime functions a program may not define.
  optimise.drop_absent_name_warnings = asyncify && arguments.asyncify != AsyncifyInstrumentation::none;
  optimise.arguments_file = asyncify_arguments;
  optimise.arguments_insert_at = asyncify_arguments_at;
  plan.steps.push_back(optimise);
  return final_module;
}

// An executable module linked by clang (WASI) or the host compiler: link | WASI: stack-check |
// [merge] | [wasm-opt] | [validate] | publish (link_plan.hpp draws each pipeline).
void add_module_executable_steps(LinkPlan& plan, const ResolvedTarget& target, const LinkArguments& arguments,
                                 const LinkToolchain& toolchain, const TemporaryNaming& naming) {
  const TargetSpec& spec = target.spec;
  const bool merge = needs_program_merge(target);
  // A wasm-opt step follows the link: Asyncify, the merged modules' clean-up, or only the
  // translation of legacy EH to exnref (P1T: every published module uses standard EH).
  const bool post_link = needs_post_link_wasm_opt(target);
  const std::optional<std::string> level =
      post_link ? link_optimization_level(spec, arguments, plan.notes) : std::nullopt;
  LinkLine line = start_link_line(plan, spec, arguments, toolchain);
  add_program_stack_size(plan, line, spec, arguments, naming);
  // Without -g no DWARF reaches the module: wasm-ld would copy the libraries' own (the sysroot's
  // wasi-libc carries it), which wasm-opt then passes on unrewritten, stale, and larger than the
  // code (a 64 KB core module linked at 307 KB). The name section stays (the analysis reads it).
  const bool keep_debug_info = link_line_keeps_debug_info(arguments.link_line);
  if (line.wasi && !keep_debug_info) line.words.push_back("-Wl,--strip-debug");
  if (post_link && line.sysroot && !line.triple.empty()) {
    // LLVM 19 lowers setjmp/longjmp to legacy EH and calls into wasi-libc's libsetjmp.
    const bool present = sysroot_has_library(*line.sysroot, line.triple, "libsetjmp.a");
    if (present && std::find(line.words.begin(), line.words.end(), "-lsetjmp") == line.words.end()) {
      line.words.push_back("-lsetjmp");
    }
  }
  note_stripped_optimization_flags(plan, arguments, post_link);

  const bool wasi = line.wasi;
  std::string to_publish = add_link_step(plan, std::move(line), arguments, post_link ? "core" : "link", naming);
  if (wasi && arguments.stack_check) {
    // Before Asyncify and the optimiser, which then treat the check as ordinary code.
    const std::string checked = temporary_path(arguments.output_path, "checked", naming);
    plan.temporaries.push_back(checked);
    plan.steps.push_back(make_step(LinkStepKind::add_stack_check, "stack-check", {}, {to_publish}, {checked}));
    to_publish = checked;
  } else if (wasi) {
    plan.notes.push_back("no stack-overflow check (--stack-check off): an overflow writes past the stack's limit");
  }
  std::vector<std::string> features = {"exception-handling"};
  if (merge) to_publish = add_merge_step(plan, spec, arguments, toolchain, naming, to_publish, features);
  if (post_link) {
    to_publish = add_wasm_opt_steps(plan, target, arguments, toolchain, naming, to_publish, features, level, keep_debug_info);
  }
  ModuleExpectations expectations = expectations_for(spec);
  // --asyncify none leaves asyncify.* imports (a baseline); a merge plan never runs Asyncify.
  if (!merge && arguments.asyncify == AsyncifyInstrumentation::none) expectations.forbid_asyncify_imports = false;
  if (is_checked_wasi_module(spec)) {
    plan.steps.push_back(with_expectations(make_step(LinkStepKind::validate_module, "validate", {}, {to_publish}, {}), expectations));
  }
  plan.steps.push_back(make_step(LinkStepKind::publish_output, "publish", {}, {to_publish}, {arguments.output_path}));
}

}  // namespace

bool runs_tool(LinkStepKind kind) {
  switch (kind) {
    case LinkStepKind::link:
    case LinkStepKind::archive:
    case LinkStepKind::compile_source:
    case LinkStepKind::merge_modules:
    case LinkStepKind::optimise_module: return true;
    case LinkStepKind::validate_module:
    case LinkStepKind::publish_output:
    case LinkStepKind::publish_folder:
    case LinkStepKind::analyse_asyncify:
    case LinkStepKind::prepare_binaryen_shim:
    case LinkStepKind::read_asyncify_report:
    case LinkStepKind::add_stack_check:
    case LinkStepKind::write_source: return false;
  }
  return false;
}

const std::vector<std::string>& default_asyncify_switch_imports() {
  static const std::vector<std::string> imports = {"asyncify.start_unwind", "asyncify.stop_rewind"};
  return imports;
}

std::string temporary_path(const std::string& output_path, const std::string& role,
                           const TemporaryNaming& naming) {
  fs::path output(output_path);
  std::string name = "." + output.filename().string() + "." + role + "." +
                     std::to_string(naming.process_id) + "." + naming.random_token + ".tmp";
  return (output.parent_path() / name).string();
}

// Whether the link line asks for debug information: its last -g flag, unless that is -g0
// (-gno-* and -gz* only modify what another -g asks for).
bool link_line_keeps_debug_info(const std::vector<std::string>& line) {
  bool keep = false;
  for (const auto& flag : line) {
    if (flag.rfind("-g", 0) != 0 || flag.rfind("-gno-", 0) == 0 || flag.rfind("-gz", 0) == 0) continue;
    keep = flag != "-g0";
  }
  return keep;
}

// Not for a context whose goroutines run on engine stacks (JSPI on P1): nothing switches by
// Asyncify there, so the link is SjLj's legacy EH -> exnref only, as for stack switching.
bool needs_post_link_asyncify(const ResolvedTarget& target) {
  return target.spec.capabilities.asyncify == AsyncifyMode::PostLink && !target_has_capability(target.spec, "engine-stacks");
}

bool needs_program_merge(const ResolvedTarget& target) { return !chosen_context_merge(target.spec).empty(); }

bool needs_exception_translation(const ResolvedTarget& target) {
  const ExceptionModels& eh = target.spec.capabilities.eh;
  return eh.compile == ExceptionModel::Legacy && eh.final == ExceptionModel::Exnref;
}

bool needs_post_link_wasm_opt(const ResolvedTarget& target) {
  return needs_post_link_asyncify(target) || needs_program_merge(target) || needs_exception_translation(target);
}

LinkPlan build_link_plan(const ResolvedTarget& target, const LinkArguments& arguments,
                         const LinkToolchain& toolchain, const TemporaryNaming& naming) {
  LinkPlan plan;
  plan.target_name = target.spec.name;
  plan.variant = target.spec.variant;
  plan.kind = arguments.kind;
  plan.output_path = arguments.output_path;
  switch (arguments.kind) {
    case LinkOutputKind::archive:
      add_archive_steps(plan, arguments, toolchain, naming);
      break;
    case LinkOutputKind::shared:
      add_shared_library_steps(plan, target.spec, arguments, toolchain, naming);
      break;
    case LinkOutputKind::executable:
      if (target.spec.capabilities.asyncify == AsyncifyMode::Emscripten) {
        add_emscripten_executable_steps(plan, target.spec, arguments, toolchain, naming);
      } else {
        add_module_executable_steps(plan, target, arguments, toolchain, naming);
      }
      break;
  }
  return plan;
}

}  // namespace llgo_wasm
