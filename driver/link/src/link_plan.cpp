// Builds LinkPlans (see link_plan.hpp) and prints them as text or JSON.
#include "llgo_wasm/link_plan.hpp"

#include "llgo_wasm/program_merge.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

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

// A sysroot lays out libraries under lib/<triple>, and clang-19 looks for its compiler-rt
// under <resource-dir>/lib/<os>.  Debian's libclang-rt-19-dev-wasm32 ships only lib/wasi, so
// without a -resource-dir shim on the link line the wasm32-wasi spelling is the one that links;
// with a shim, the resolved (wasip1) spelling is kept.  Either way, use a name the sysroot has.
std::string link_triple_for_sysroot(const std::string& triple, const std::optional<std::string>& sysroot,
                                    bool resource_dir_given, std::vector<std::string>& notes) {
  if (!sysroot || triple.empty()) return triple;
  std::vector<std::string> candidates;
  if (triple == "wasm32-unknown-wasip1" || triple == "wasm32-wasip1") {
    if (resource_dir_given) candidates = {triple, "wasm32-wasip1", "wasm32-wasi"};
    else candidates = {"wasm32-wasi", triple, "wasm32-wasip1"};
  } else if (triple == "wasm32-wasip1-threads" || triple == "wasm32-unknown-wasip1-threads") {
    if (resource_dir_given) candidates = {triple, "wasm32-wasip1-threads", "wasm32-wasi-threads"};
    else candidates = {"wasm32-wasi-threads", triple, "wasm32-wasip1-threads"};
  } else {
    candidates = {triple};
  }
  for (const auto& candidate : candidates) {
    std::error_code ignored;
    if (fs::is_directory(fs::path(*sysroot) / "lib" / candidate, ignored)) {
      if (candidate != triple) {
        notes.push_back("linking with --target=" + candidate + " for " + triple + " (the spelling this sysroot and clang-19's compiler-rt both have; pass --target or -resource-dir to choose)");
      }
      return candidate;
    }
  }
  return triple;
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


std::string describe_expectations(const ModuleExpectations& e) {
  std::vector<std::string> parts;
  if (e.forbid_shared_memory) parts.push_back("no shared memory");
  if (e.require_shared_memory) parts.push_back("shared memory");
  if (e.forbid_thread_imports) parts.push_back("no pthread/thread-spawn/wasi-threads imports");
  if (e.forbid_asyncify_imports) parts.push_back("no asyncify.* imports");
  if (e.forbid_legacy_exceptions) parts.push_back("no legacy try/catch (exnref only)");
  if (e.forbid_stack_switching) parts.push_back("no stack-switching instructions");
  for (const auto& name : e.merged_import_modules) parts.push_back("no " + name + ".* imports (merged)");
  for (const auto& name : e.required_function_exports) parts.push_back("exports function " + name);
  for (const auto& name : e.required_memory_exports) parts.push_back("exports memory " + name);
  if (parts.empty()) return "readable wasm module";
  std::string joined;
  for (const auto& part : parts) joined += (joined.empty() ? "" : ", ") + part;
  return joined;
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

const char* step_kind_name(LinkStepKind kind) {
  switch (kind) {
    case LinkStepKind::run_tool: return "run";
    case LinkStepKind::validate_module: return "validate";
    case LinkStepKind::publish_output: return "publish";
    case LinkStepKind::analyse_asyncify: return "analyse";
    case LinkStepKind::prepare_binaryen_shim: return "prepare";
    case LinkStepKind::read_asyncify_report: return "report";
    case LinkStepKind::add_stack_check: return "stack-check";
    case LinkStepKind::write_source: return "write";
  }
  return "?";
}

// The source a program stack size (--stack-size) becomes: the definition LLGO_STACK_SIZE writes
// (llgo_runtime.h), which the runtime reads through a weak reference (runtime/src/stack_size.c).
std::string stack_size_source(std::uint64_t size) {
  return "/* llgo-wasm link --stack-size: this program's goroutine stack size (llgo_runtime.h, LLGO_STACK_SIZE). */\n"
         "const __SIZE_TYPE__ llgo_stack_size = " + std::to_string(size) + "u;\n";
}

}  // namespace

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") ==
                           std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted += "'\\''";
    else quoted += c;
  }
  return quoted + "'";
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

// The level the link line gave, else the descriptor's default (a note says so).
static std::optional<std::string> link_optimization_level(const TargetSpec& spec, const LinkArguments& arguments,
                                                          std::vector<std::string>& notes) {
  if (!arguments.stripped_optimization_flags.empty()) return arguments.stripped_optimization_flags.back();
  const std::string& level = spec.link_optimization;
  if (level.empty()) return std::nullopt;
  notes.push_back("no -O on the link line: the target's default " + level + " (descriptor field link-optimization)");
  return level;
}

bool needs_post_link_asyncify(const ResolvedTarget& target) {
  return target.spec.capabilities.asyncify == AsyncifyMode::PostLink;
}

bool needs_program_merge(const ResolvedTarget& target) { return !chosen_context_merge(target.spec).empty(); }

bool needs_exception_translation(const ResolvedTarget& target) {
  const ExceptionModels& eh = target.spec.capabilities.eh;
  return eh.compile == ExceptionModel::Legacy && eh.final == ExceptionModel::Exnref;
}

bool needs_post_link_wasm_opt(const ResolvedTarget& target) {
  return needs_post_link_asyncify(target) || needs_program_merge(target) || needs_exception_translation(target);
}

// emcc writes <name>.js and a <name>.wasm the script loads by name, so it links into a
// temporary folder under the output's own name, whose files are then moved beside the output.
// With narrowed Asyncify its Binaryen runs through the shim (emscripten_asyncify.hpp).
static void add_emscripten_executable_steps(LinkPlan& plan, std::vector<std::string> link, const LinkArguments& arguments, const LinkToolchain& toolchain,
                                            const TemporaryNaming& naming) {
  const std::string folder = temporary_path(arguments.output_path, "emcc", naming);
  plan.temporaries.push_back(folder);
  const std::string emcc_output = (fs::path(folder) / fs::path(arguments.output_path).filename()).string();
  link.push_back("-o");
  link.push_back(emcc_output);
  LinkStep link_step = make_step(LinkStepKind::run_tool, "link", link, arguments.inputs, {emcc_output});
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
  plan.steps.push_back(make_step(LinkStepKind::publish_output, "publish", {}, {folder}, {arguments.output_path}));
}

LinkPlan build_link_plan(const ResolvedTarget& target, const LinkArguments& arguments,
                         const LinkToolchain& toolchain, const TemporaryNaming& naming) {
  const TargetSpec& spec = target.spec;
  LinkPlan plan;
  plan.target_name = spec.name;
  plan.variant = spec.variant;
  plan.kind = arguments.kind;
  plan.output_path = arguments.output_path;
  const std::string compiler = arguments.compiler.value_or(toolchain.compiler);
  const bool executable = arguments.kind == LinkOutputKind::executable;
  const bool asyncify = executable && needs_post_link_asyncify(target);
  const bool merge = executable && needs_program_merge(target);
  // A wasm-opt step follows the link: Asyncify, the merged modules' clean-up, or only the
  // translation of legacy EH to exnref (P1T: every published module uses standard EH).
  const bool post_link = executable && needs_post_link_wasm_opt(target);
  // emcc runs Binaryen (and its Asyncify) itself.
  const bool emscripten = spec.capabilities.asyncify == AsyncifyMode::Emscripten;
  const std::optional<std::string> level =
      executable && (post_link || emscripten) ? link_optimization_level(spec, arguments, plan.notes) : std::nullopt;

  if (arguments.kind == LinkOutputKind::archive) {
    const std::string archive_temp = temporary_path(arguments.output_path, "ar", naming);
    plan.temporaries.push_back(archive_temp);
    LinkStep archive = make_step(LinkStepKind::run_tool, "archive", {toolchain.archiver, "rcs", archive_temp}, arguments.inputs, {archive_temp});
    archive.command.insert(archive.command.end(), arguments.inputs.begin(), arguments.inputs.end());
    plan.steps.push_back(archive);
    if (arguments.link_line.size() != arguments.inputs.size()) {
      plan.notes.push_back("flags other than inputs are ignored for an archive");
    }
    plan.steps.push_back(make_step(LinkStepKind::publish_output, "publish", {}, {archive_temp}, {arguments.output_path}));
    return plan;
  }

  // The tool-link step (clang, emcc or the host compiler).
  std::vector<std::string> link = {compiler};
  const bool wasi = triple_is_wasi(spec.triple);
  std::optional<std::string> sysroot = arguments.sysroot ? arguments.sysroot : toolchain.sysroot;
  const bool user_gave_target = has_flag_with_prefix(arguments.link_line, {"--target", "-target"});
  const bool user_gave_sysroot = has_flag_with_prefix(arguments.link_line, {"--sysroot"});
  std::string link_triple;
  if (wasi) {
    const bool resource_dir_given = has_flag_with_prefix(arguments.link_line, {"-resource-dir"});
    std::vector<std::string> triple_notes;
    link_triple = link_triple_for_sysroot(spec.triple, sysroot, resource_dir_given, triple_notes);
    if (!user_gave_target && !link_triple.empty()) {
      link.push_back("--target=" + link_triple);
      plan.notes.insert(plan.notes.end(), triple_notes.begin(), triple_notes.end());
    }
    if (!user_gave_sysroot && sysroot) link.push_back("--sysroot=" + *sysroot);
  }
  if (arguments.kind == LinkOutputKind::shared) link.push_back("-shared");
  for (const auto& flag : effective_flags(spec).ldflags) {
    for (auto& word : descriptor_flag_words(flag)) {
      if (is_optimization_flag(word)) continue;
      link.push_back(toolchain.llgo_wasm_root ? substitute(word, kRootPlaceholder, *toolchain.llgo_wasm_root) : word);
    }
  }
  link.insert(link.end(), arguments.link_line.begin(), arguments.link_line.end());
  if (arguments.program_stack_size && arguments.kind == LinkOutputKind::executable) {
    // The program's stack size, compiled as the target compiles C and linked like its objects.
    const std::string folder = temporary_path(arguments.output_path, "stack-size", naming);
    const std::string source = (fs::path(folder) / "llgo_stack_size.c").string();
    const std::string object = (fs::path(folder) / "llgo_stack_size.o").string();
    plan.temporaries.push_back(folder);
    LinkStep write = make_step(LinkStepKind::write_source, "stack-size", {}, {}, {source});
    write.content = stack_size_source(*arguments.program_stack_size);
    plan.steps.push_back(write);
    std::vector<std::string> compile = {compiler, "-c"};
    if (wasi) {
      if (!link_triple.empty()) compile.push_back("--target=" + link_triple);
      if (sysroot) compile.push_back("--sysroot=" + *sysroot);
    }
    for (const auto& flag : effective_flags(spec).cflags) {
      for (auto& word : descriptor_flag_words(flag)) {
        if (!is_optimization_flag(word)) compile.push_back(word);
      }
    }
    compile.insert(compile.end(), {source, "-o", object});
    plan.steps.push_back(make_step(LinkStepKind::run_tool, "compile-stack-size", compile, {source}, {object}));
    link.push_back(object);
    plan.notes.push_back("stack size " + std::to_string(*arguments.program_stack_size) +
                         " bytes (--stack-size or LLGO_WASM_STACK_SIZE): compiled into the program as llgo_stack_size");
  }
  // emcc runs Binaryen itself and must see the level; only clang's hidden wasm-opt is avoided.
  if (emscripten && level) link.push_back(*level);
  if (emscripten && arguments.kind == LinkOutputKind::executable && arguments.asyncify == AsyncifyInstrumentation::none) {
    link.erase(std::remove_if(link.begin() + 1, link.end(),
                              [](const std::string& flag) { return flag.rfind("-sASYNCIFY", 0) == 0; }),
               link.end());
    plan.notes.push_back("Asyncify off (--asyncify none): -sASYNCIFY and its settings removed from the emcc line");
  }
  // Without -g no DWARF reaches the module: wasm-ld would copy the libraries' own (the sysroot's
  // wasi-libc carries it), which wasm-opt then passes on unrewritten, stale, and larger than the
  // code (a 64 KB core module linked at 307 KB). The name section stays (the analysis reads it).
  const bool keep_debug_info = link_line_keeps_debug_info(arguments.link_line);
  if (wasi && !emscripten && arguments.kind == LinkOutputKind::executable && !keep_debug_info) {
    link.push_back("-Wl,--strip-debug");
  }
  if (post_link && sysroot && !link_triple.empty()) {
    // LLVM 19 lowers setjmp/longjmp to legacy EH and calls into wasi-libc's libsetjmp.
    std::error_code ignored;
    bool present = fs::exists(fs::path(*sysroot) / "lib" / link_triple / "libsetjmp.a", ignored);
    if (present && std::find(link.begin(), link.end(), "-lsetjmp") == link.end()) link.push_back("-lsetjmp");
  }
  for (const auto& flag : emscripten ? std::vector<std::string>{} : arguments.stripped_optimization_flags) {
    plan.notes.push_back("removed " + flag + " from the link line: with -O clang runs its own hidden "
                         "wasm-opt at link time" +
                         std::string(post_link ? "; the level goes to the pinned wasm-opt step instead" : ""));
  }

  if (emscripten && arguments.kind == LinkOutputKind::executable) {
    add_emscripten_executable_steps(plan, std::move(link), arguments, toolchain, naming);
    return plan;
  }

  const std::string linked = temporary_path(arguments.output_path, post_link ? "core" : "link", naming);
  plan.temporaries.push_back(linked);
  link.push_back("-o");
  link.push_back(linked);
  plan.steps.push_back(make_step(LinkStepKind::run_tool, "link", link, arguments.inputs, {linked}));

  std::string to_publish = linked;
  if (executable && wasi && arguments.stack_check) {
    // Before Asyncify and the optimiser, which then treat the check as ordinary code.
    const std::string checked = temporary_path(arguments.output_path, "checked", naming);
    plan.temporaries.push_back(checked);
    plan.steps.push_back(make_step(LinkStepKind::add_stack_check, "stack-check", {}, {linked}, {checked}));
    to_publish = checked;
  } else if (executable && wasi) {
    plan.notes.push_back("no stack-overflow check (--stack-check off): an overflow writes past the stack's limit");
  }
  std::vector<std::string> features = {"exception-handling"};
  if (merge) {
    // The context's modules join the program (stack switching: its switch glue); no Asyncify.
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
    std::vector<std::string> inputs = {to_publish};
    for (const auto& module : modules.modules) inputs.push_back(module.source);
    plan.steps.push_back(make_step(LinkStepKind::run_tool, "merge", wasm_merge_command(modules, toolchain.wasm_merge, to_publish, merged),
                                   inputs, {merged}));
    to_publish = merged;
  }
  if (post_link) {
    const std::string final_module = temporary_path(arguments.output_path, "final", naming);
    plan.temporaries.push_back(final_module);
    std::vector<std::string> wasm_opt = {toolchain.wasm_opt, to_publish};
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
        LinkStep analysis = make_step(LinkStepKind::analyse_asyncify, "asyncify-analysis", {}, {to_publish}, {*asyncify_arguments, list});
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
    LinkStep optimise = make_step(LinkStepKind::run_tool, name, wasm_opt, {to_publish}, {final_module});
    // The descriptor's remove-lists name runtime functions a program may not define.
    optimise.drop_absent_name_warnings = asyncify && arguments.asyncify != AsyncifyInstrumentation::none;
    optimise.arguments_file = asyncify_arguments;
    optimise.arguments_insert_at = asyncify_arguments_at;
    plan.steps.push_back(optimise);
    to_publish = final_module;
  }
  ModuleExpectations expectations = expectations_for(spec);
  // --asyncify none leaves asyncify.* imports (a baseline); a merge plan never runs Asyncify.
  if (!merge && arguments.asyncify == AsyncifyInstrumentation::none) expectations.forbid_asyncify_imports = false;
  if (arguments.kind == LinkOutputKind::executable && is_checked_wasi_module(spec)) {
    plan.steps.push_back(with_expectations(make_step(LinkStepKind::validate_module, "validate", {}, {to_publish}, {}), expectations));
  }
  plan.steps.push_back(make_step(LinkStepKind::publish_output, "publish", {}, {to_publish}, {arguments.output_path}));
  return plan;
}

std::string format_link_plan_text(const LinkPlan& plan) {
  std::ostringstream out;
  out << "link plan: target " << (plan.target_name.empty() ? "?" : plan.target_name);
  if (!plan.variant.empty()) out << " (" << plan.variant << ")";
  out << ", " << to_string(plan.kind) << " -> " << plan.output_path << "\n";
  int number = 1;
  for (const auto& step : plan.steps) {
    out << "  " << number++ << ". " << step.name << ": ";
    switch (step.kind) {
      case LinkStepKind::run_tool: {
        std::string line;
        for (const auto& setting : step.environment) line += shell_quote(setting) + " ";
        for (size_t i = 0; i <= step.command.size(); ++i) {
          if (step.arguments_file && i == step.arguments_insert_at) {
            line += " <arguments decided by asyncify-analysis, from " + *step.arguments_file + ">";
          }
          if (i < step.command.size()) line += (line.empty() ? "" : " ") + shell_quote(step.command[i]);
        }
        out << line;
        break;
      }
      case LinkStepKind::analyse_asyncify:
        out << step.inputs.front() << ": call graph -> which functions can reach a switch point (";
        for (size_t i = 0; i < step.narrowing->switch_imports.size(); ++i) {
          out << (i ? ", " : "") << step.narrowing->switch_imports[i];
        }
        out << ") -> wasm-opt arguments in " << step.outputs.front();
        break;
      case LinkStepKind::validate_module:
        out << step.inputs.front() << ": " << describe_expectations(step.expectations.value_or(ModuleExpectations{}));
        break;
      case LinkStepKind::publish_output:
        if (step.inputs.front().find(".emcc.") != std::string::npos) {
          out << "move the files of " << step.inputs.front() << "/ beside " << step.outputs.front() << " (the .wasm first)";
        } else {
          out << "rename " << step.inputs.front() << " -> " << step.outputs.front();
        }
        break;
      case LinkStepKind::prepare_binaryen_shim:
        out << "EM_BINARYEN_ROOT=" << step.outputs.front() << ": " << step.shim->binaryen_root
            << "'s tools, wasm-opt through this driver ("
            << (step.shim->narrow ? "call graph -> asyncify remove-list" : "")
            << (step.shim->narrow && step.shim->stack_check ? "; " : "")
            << (step.shim->stack_check ? "the stack-overflow check" : "") << ")";
        break;
      case LinkStepKind::read_asyncify_report:
        out << step.inputs.front();
        break;
      case LinkStepKind::add_stack_check:
        out << step.inputs.front() << ": check every write of __stack_pointer that can lower it against "
            << "__llgo_stack_guard (llgo_stack_overflow_trap below it) -> " << step.outputs.front();
        break;
      case LinkStepKind::write_source:
      {
        std::string definition = step.content.substr(step.content.find('\n') + 1);
        while (!definition.empty() && definition.back() == '\n') definition.pop_back();
        out << step.outputs.front() << ": " << definition;
        break;
      }
    }
    out << "\n";
  }
  if (!plan.temporaries.empty()) {
    out << "  temporaries (removed on success and on failure):";
    for (const auto& temp : plan.temporaries) out << " " << temp;
    out << "\n";
  }
  for (const auto& note : plan.notes) out << "  note: " << note << "\n";
  return out.str();
}

nlohmann::json link_plan_to_json(const LinkPlan& plan) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : plan.steps) {
    nlohmann::json entry = {{"name", step.name},
                            {"kind", step_kind_name(step.kind)},
                            {"inputs", step.inputs},
                            {"outputs", step.outputs}};
    if (step.kind == LinkStepKind::run_tool) {
      entry["tool"] = step.command.front();
      entry["args"] = std::vector<std::string>(step.command.begin() + 1, step.command.end());
    }
    if (step.expectations) entry["checks"] = describe_expectations(*step.expectations);
    if (step.narrowing) entry["switch_imports"] = step.narrowing->switch_imports;
    if (step.arguments_file) {
      entry["arguments_file"] = *step.arguments_file;
      entry["arguments_insert_at"] = step.arguments_insert_at;  // index into [tool] + args
    }
    steps.push_back(entry);
  }
  return {{"target", plan.target_name}, {"variant", plan.variant}, {"kind", to_string(plan.kind)},
          {"output", plan.output_path}, {"steps", steps}, {"temporaries", plan.temporaries},
          {"notes", plan.notes}};
}

}  // namespace llgo_wasm
