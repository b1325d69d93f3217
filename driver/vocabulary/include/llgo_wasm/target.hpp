// The vocabulary of targets (library llgo_wasm_vocabulary, shared by the driver and the
// link pipeline): capability enums, the data model, the complete target specification,
// the user's Query and the ResolvedTarget it becomes.
//
// Query is what the user said (every field may be unset). ResolvedTarget is what the
// driver decided (every field set, and const: it is never patched after resolution).
// A TargetSpec holds a descriptor's values as written (merged along `inherits`);
// effective_flags() derives what consumers build with (the full tag set, ldflags with
// -sENVIRONMENT and the chosen context's flags).
//
// The JSON form of a ResolvedTarget is what `llgo-wasm resolve --json` prints and what the
// C API returns. It uses the descriptors' keys and shapes (targets/schema.json), so it loads
// back as a descriptor (`--target resolved.json` resolves to the same target), plus record
// keys (origin, effective, ...) that resolution recomputes; target_from_json(target_to_json(t))
// == t. The fields are declared once, in the table of target_fields.hpp that spec_to_json and
// spec_from_json walk; targets/schema.json is checked against it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace llgo_wasm {

// Version of the resolved-target JSON (format-version); 2 is the descriptor-shaped form.
inline constexpr int kResolvedTargetFormatVersion = 2;

// A target's runtime family ("J32", "P1", ...) and an execution-context backend ("asyncify",
// "emscripten-fiber", ...) are names, not C++ enums: targets/schema.json lists the valid ones
// (and, for each backend, what a target needs to use it), so a new variant or backend needs
// edits in targets/ and runtime/ only. Code branches on capabilities, never on these names;
// a variant is a display label.
using Variant = std::string;
using ContextBackend = std::string;

enum class AsyncifyMode { None, Emscripten, PostLink };
enum class ExceptionModel { None, Legacy, Exnref, Emscripten, Host };
// Where goroutine stacks live (runtime/src/wasmcontext_storage_<mode>.c): all on one shared stack,
// each switched-out goroutine keeping a right-sized copy, or a fixed stack per goroutine.
enum class StackMode { Shared, Separate };
// Where a decided GOOS/GOARCH came from.
enum class Origin { Target, Flag, Environment, Host };

// Spelling used in descriptors, JSON and messages ("post-link", "emscripten-fiber", ...).
std::string_view to_string(AsyncifyMode);
std::string_view to_string(ExceptionModel);
std::string_view to_string(StackMode);
std::string_view to_string(Origin);
// Inverse of to_string; std::nullopt for an unknown spelling.
std::optional<AsyncifyMode> parse_asyncify_mode(std::string_view);
std::optional<ExceptionModel> parse_exception_model(std::string_view);
std::optional<StackMode> parse_stack_mode(std::string_view);
std::optional<Origin> parse_origin(std::string_view);
// Every spelling of each enum, in declaration order (for messages and the schema).
const std::vector<std::string_view>& asyncify_mode_names();
const std::vector<std::string_view>& exception_model_names();
const std::vector<std::string_view>& stack_mode_names();
const std::vector<std::string_view>& origin_names();
// The build tag that names a context backend: "llgo.context_emscripten_fiber", ...
std::string context_build_tag(const ContextBackend&);
// The build tag that names a stack mode: "llgo.stacks_shared" or "llgo.stacks_separate".
std::string stacks_build_tag(StackMode);

// What an LLVM triple says: the pointer width of its architecture (0 when unknown), and
// whether it names WebAssembly, Emscripten or WASI.
int triple_pointer_width(std::string_view triple);
bool triple_is_wasm(std::string_view triple);
bool triple_is_emscripten(std::string_view triple);
bool triple_is_wasi(std::string_view triple);

// Sizes in bytes of C types that the ABI depends on.
struct DataModel {
  int pointer = 0;
  int long_size = 0;
  int ssize_t_size = 0;
  bool operator==(const DataModel&) const = default;
};

struct ExceptionModels {
  ExceptionModel compile = ExceptionModel::None;  // what the compiler emits
  ExceptionModel final = ExceptionModel::None;    // what the published module contains
  bool operator==(const ExceptionModels&) const = default;
};

struct Capabilities {
  AsyncifyMode asyncify = AsyncifyMode::None;
  bool memory64 = false;
  ExceptionModels eh;
  bool threads = false;
  // The engines run WebAssembly stack switching (typed continuations: cont.new, resume,
  // suspend); without it a module must contain none of those instructions.
  bool stack_switching = false;
  // capabilities.context.default: the descriptor's default, or in a resolved target the chosen one.
  ContextBackend context;
  std::vector<ContextBackend> supported_contexts;
  // capabilities.stacks (optional in a descriptor: without it, separate only). In a resolved
  // target, stacks is the chosen mode and supported_stacks those the chosen context can run
  // ($defs/context/x-llgo-stacks in targets/schema.json).
  StackMode stacks = StackMode::Separate;
  std::vector<StackMode> supported_stacks = {StackMode::Separate};
  bool operator==(const Capabilities&) const = default;
};

struct OutputPolicy {
  std::string default_extension;                 // "" = names are used as given
  std::vector<std::string> accepted_extensions;  // empty = any name is accepted
  bool operator==(const OutputPolicy&) const = default;
};

// How to run a program of a target under one engine.
struct Engine {
  // argv; "{program}" is the program, "{root}" the llgo-wasm root, and a word holding
  // "{environment}" stands for one word per variable of the program's environment (NAME=VALUE in
  // its place: engine_command_words). The first word is a tool the consumer finds on the machine
  // (node, wasmedge; llgo-wasm run says where it looks), unless it is the program itself.
  std::vector<std::string> command;
  std::string extension;  // the output extension this engine runs; "" = the default one
  bool optional = false;  // used only when its tool is installed
  // Each run is costly (a browser starts): the engine runs the smoke program and the
  // scheduler fixture's modes, not every case of every test program.
  bool sampled = false;
  // The default test tier runs every test-program case on this engine too, not only on the
  // target's primary engine (a standalone runtime whose differences from Node matter).
  bool every_case = false;
  // The oldest version of the tool that runs this target's programs ("24", "0.14"): compared
  // with the first dotted number `TOOL --version` prints. "" = any.
  std::string minimum_version;
  // What the engine's runner offers beyond running the program, which test cases may require
  // ("wasi-poll-audit": tests/runners/run-wasi.mjs reports poll_oneoff's subscriptions).
  std::vector<std::string> provides;
  std::vector<std::string> labels;  // test labels of every run on this engine ("browser")
  // The context backends whose programs this engine runs; empty = every one. Resolution keeps
  // only the engines that run the chosen context (WasmEdge runs no JSPI module).
  std::vector<std::string> contexts;
  bool operator==(const Engine&) const = default;
};

// WebAssembly modules of llgo-wasm itself that the link joins to the linked program (with
// Binaryen's wasm-merge) when a context backend needs code LLVM cannot emit - the
// stack-switching context's switch glue. See driver/link's program_merge.hpp for the names the
// program and the modules use for each other.
struct MergedModule {
  std::string name;    // the import module name the program uses for it
  std::string source;  // a .wat or .wasm file, usually under {root}
  bool operator==(const MergedModule&) const = default;
};
struct ProgramMerge {
  std::vector<MergedModule> modules;          // in merge order
  std::vector<std::string> internal_exports;  // export name patterns ('*') removed after the merge
  std::vector<std::string> features;          // Binaryen features, given explicitly (never -all)
  bool empty() const { return modules.empty(); }
  bool operator==(const ProgramMerge&) const = default;
};

// Placeholders descriptors may write in flags and engine commands; consumers substitute
// them, so a resolved target (and its cache key) is the same in every checkout.
inline constexpr std::string_view kRootPlaceholder = "{root}";        // the llgo-wasm root
inline constexpr std::string_view kProgramPlaceholder = "{program}";  // engines: the program
// engines: a word holding it is repeated once per environment variable (NAME=VALUE in its place)
inline constexpr std::string_view kEnvironmentPlaceholder = "{environment}";
// `text` with every `placeholder` replaced by `value`.
std::string substitute(std::string text, std::string_view placeholder, std::string_view value);
// An engine command's words with each word holding {environment} replaced by one word per entry
// of `environment` (NAME=VALUE strings, in order), the placeholder replaced by the entry; other
// words are kept. For engines that pass no environment of their own to the program (WasmEdge:
// "--env={environment}"). Every consumer that starts an engine applies it at run time.
std::vector<std::string> expand_environment_words(const std::vector<std::string>& command,
                                                  const std::vector<std::string>& environment);

// Everything a target decides, shared by a loaded descriptor and a resolved target.
struct TargetSpec {
  std::string name;
  Variant variant;
  std::string goos;
  std::string goarch;
  std::string triple;
  DataModel data_model;
  Capabilities capabilities;
  std::vector<std::string> build_tags;    // as declared; see effective_flags for the full set
  std::vector<std::string> cflags;        // one flag per entry, possibly with its argument ("-mllvm -x")
  std::vector<std::string> ldflags;
  // Compile flags added only when that context backend is the chosen one (e.g. its SjLj model).
  std::map<ContextBackend, std::vector<std::string>> context_cflags;
  // Link flags added only when that context backend is the chosen one.
  std::map<ContextBackend, std::vector<std::string>> context_ldflags;
  // The exception-handling models when that context backend is the chosen one, replacing
  // capabilities.eh (resolution applies it: e.g. a context that needs wasm SjLj on a target
  // whose default is Emscripten's JS-based model).
  std::map<ContextBackend, ExceptionModels> context_eh;
  // Modules merged into executables only when that context backend is the chosen one.
  std::map<ContextBackend, ProgramMerge> context_merge;
  std::vector<std::string> environments;  // Emscripten -sENVIRONMENT values
  // Imports that may start an Asyncify unwind, beside the runtime's own asyncify.* intrinsics
  // (post-link Asyncify only).
  std::vector<std::string> asyncify_imports;
  // Functions Asyncify must not instrument (they never switch, e.g. the runtime's fatal path):
  // --pass-arg=asyncify-removelist for post-link Asyncify, -sASYNCIFY_REMOVE under emcc.
  std::vector<std::string> asyncify_removelist;
  // More such functions, only when that context backend is the chosen one (the raw Asyncify
  // backend's host loop: below its unwind's stop, but reached by signature from the program).
  std::map<ContextBackend, std::vector<std::string>> context_asyncify_removelist;
  // The running C stack: with shared stacks every goroutine's and main's, with separate stacks
  // main's; the runtime is compiled with it (LLGO_DEFAULT_STACK_SIZE).
  std::uint64_t default_stack_size = 0;
  // With separate stacks (and threads), each goroutine's own stack (LLGO_SEPARATE_STACK_SIZE);
  // a descriptor without it has default-stack-size there.
  std::uint64_t separate_stack_size = 0;
  // The most goroutines alive at once (0: no cap beyond memory): where the engine aborts
  // past some number of them, the runtime refuses the goroutine before that instead.
  std::uint64_t max_goroutines = 0;
  // Level of the post-link optimiser (the driver's wasm-opt step, emcc's Binaryen) when the
  // link line names none: "-O0".."-O4", "-Os", "-Oz"; "" = the tool's own default.
  std::string link_optimization;
  OutputPolicy output;
  // The engines `llgo-wasm run` chooses from, in order of preference: the first that runs the
  // program's extension and whose tool is here (names of `engines`).
  std::vector<std::string> run_engines;
  std::map<std::string, Engine> engines;  // by engine name
  bool operator==(const TargetSpec&) const = default;
};

// What consumers build with, derived from a spec (its capabilities.context and .stacks are the
// chosen ones): the full tag set //llgo:build lines are evaluated against (goos, goarch, "llgo",
// "unix" where Go sets it, the declared tags, the context's tag and the stacks tag; sorted,
// unique), the cflags followed by the context's context-cflags and -DLLGO_MAX_GOROUTINES=<max-goroutines> when there is a cap,
// and the ldflags followed by -sENVIRONMENT=..., -sASYNCIFY_REMOVE=... (when emcc runs
// Asyncify, which also keeps emcc's name section for the stack check) and the context's context-ldflags.
struct EffectiveFlags {
  std::vector<std::string> build_tags;
  std::vector<std::string> cflags;
  std::vector<std::string> ldflags;
  bool operator==(const EffectiveFlags&) const = default;
};
EffectiveFlags effective_flags(const TargetSpec& spec);

// The chosen context's modules to merge (empty when it has none).
const ProgramMerge& chosen_context_merge(const TargetSpec& spec);

// asyncify-removelist, then the chosen context's context-asyncify-removelist.
std::vector<std::string> chosen_asyncify_removelist(const TargetSpec& spec);

// What the user said. Unset means "not said"; resolution decides.
struct Query {
  std::optional<std::string> target;  // a built-in name, or a path to a custom .json descriptor
  std::optional<std::string> goos;    // from --goos (the environment's GOOS goes in `environment`)
  std::optional<std::string> goarch;  // from --goarch
  std::optional<std::string> context; // from --context
  std::optional<std::string> stacks;  // from --stacks
  // from --stack-size (bytes, or with a K/M/G suffix): replaces the resolved stack size that
  // applies to the chosen stack mode (default-stack-size for shared stacks, separate-stack-size
  // for separate ones)
  std::optional<std::string> stack_size;
  // Directories a custom descriptor's `inherits` may also name files in (--descriptor-path);
  // without them only its own directory tree and the built-in descriptors are reachable.
  std::vector<std::string> descriptor_search_path;
  // The process environment as far as it matters: GOOS, GOARCH, LLGO_WASI_THREADS,
  // LLGO_WASM_CONTEXT, LLGO_WASM_STACKS, LLGO_WASM_STACK_SIZE. Other entries are ignored.
  std::map<std::string, std::string> environment;
};

// The complete, immutable result of resolving a Query.
struct ResolvedTarget {
  // The target's decided properties; capabilities.context and capabilities.stacks are the
  // chosen context backend and stack mode.
  const TargetSpec spec;
  const Origin goos_origin;
  const Origin goarch_origin;
  // Build-affecting environment values, normalized ("" -> "0" for LLGO_WASI_THREADS).
  const std::map<std::string, std::string> environment;
  // Environment values the named target won over (e.g. GOOS=wasip1 under -target wasm).
  const std::map<std::string, std::string> overridden_environment;
  // The descriptor files merged into this target, parents first (a resolved target loaded
  // again keeps the files it records).
  const std::vector<std::string> descriptor_files;

  bool implied_goos() const { return goos_origin == Origin::Target; }
  bool implied_goarch() const { return goarch_origin == Origin::Target; }
  bool operator==(const ResolvedTarget&) const = default;
};

// A spec in descriptor shape (every key of targets/schema.json that a spec holds), and back.
// spec_from_json throws MissingFieldError for an absent required key (lists and maps may be
// absent: empty) and DriverError naming the key for a wrong type or spelling; keys it does not
// read are ignored (the loader checks keys against the schema first).
nlohmann::json spec_to_json(const TargetSpec&);
TargetSpec spec_from_json(const nlohmann::json&);

// The spec plus the record keys: format-version, implied, origin, environment,
// overridden-environment, descriptor-files, effective.
nlohmann::json target_to_json(const ResolvedTarget&);
// Throws DriverError naming the offending key when the JSON is not a resolved target. The
// record key "effective" is derived, so it is recomputed rather than read.
ResolvedTarget target_from_json(const nlohmann::json&);

}  // namespace llgo_wasm
