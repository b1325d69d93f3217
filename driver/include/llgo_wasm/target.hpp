// The vocabulary of targets: capability enums, the data model, the complete target
// specification, the user's Query and the ResolvedTarget it becomes.
//
// Query is what the user said (every field may be unset). ResolvedTarget is what the
// driver decided (every field set, and const: it is never patched after resolution).
// The JSON form of a ResolvedTarget is what `llgo-wasm resolve --json` prints and what
// the C API returns; target_from_json(target_to_json(t)) == t.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace llgo_wasm {

enum class Variant { J32, J64, P1, P1T, Native };
enum class AsyncifyMode { None, Emscripten, PostLink };
enum class ExceptionModel { None, Legacy, Exnref, Emscripten, Host };
enum class ContextBackend { Asyncify, EmscriptenFiber, Pthread, Ucontext };
enum class Runner { Node, Wasi, WasiThreads, Native };
// Where a decided GOOS/GOARCH came from.
enum class Origin { Target, Flag, Environment, Host };

// Spelling used in descriptors, JSON and messages ("post-link", "emscripten-fiber", ...).
std::string_view to_string(Variant);
std::string_view to_string(AsyncifyMode);
std::string_view to_string(ExceptionModel);
std::string_view to_string(ContextBackend);
std::string_view to_string(Runner);
std::string_view to_string(Origin);
// Inverse of to_string; std::nullopt for an unknown spelling.
std::optional<Variant> parse_variant(std::string_view);
std::optional<AsyncifyMode> parse_asyncify_mode(std::string_view);
std::optional<ExceptionModel> parse_exception_model(std::string_view);
std::optional<ContextBackend> parse_context_backend(std::string_view);
std::optional<Runner> parse_runner(std::string_view);
std::optional<Origin> parse_origin(std::string_view);
// Every spelling of each enum, in declaration order (for messages and the schema).
const std::vector<std::string_view>& variant_names();
const std::vector<std::string_view>& asyncify_mode_names();
const std::vector<std::string_view>& exception_model_names();
const std::vector<std::string_view>& context_backend_names();
const std::vector<std::string_view>& runner_names();
// The build tag that names a context backend: "llgo.context_emscripten_fiber", ...
std::string context_build_tag(ContextBackend);

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
  ContextBackend context = ContextBackend::Pthread;  // the default (descriptor) or chosen (resolved) one
  std::vector<ContextBackend> supported_contexts;
  bool operator==(const Capabilities&) const = default;
};

struct OutputPolicy {
  std::string default_extension;                 // "" = names are used as given
  std::vector<std::string> accepted_extensions;  // empty = any name is accepted
  bool operator==(const OutputPolicy&) const = default;
};

// Everything a target decides, shared by a loaded descriptor and a resolved target.
struct TargetSpec {
  std::string name;
  Variant variant = Variant::Native;
  std::string goos;
  std::string goarch;
  std::string triple;
  DataModel data_model;
  Capabilities capabilities;
  std::vector<std::string> build_tags;
  std::vector<std::string> cflags;        // one flag per entry, possibly with its argument ("-mllvm -x")
  std::vector<std::string> ldflags;
  std::vector<std::string> environments;  // Emscripten -sENVIRONMENT values
  std::uint64_t default_stack_size = 0;
  OutputPolicy output;
  Runner runner = Runner::Native;
  bool operator==(const TargetSpec&) const = default;
};

// What the user said. Unset means "not said"; resolution decides.
struct Query {
  std::optional<std::string> target;  // a built-in name, or a path to a custom .json descriptor
  std::optional<std::string> goos;    // from --goos (the environment's GOOS goes in `environment`)
  std::optional<std::string> goarch;  // from --goarch
  std::optional<std::string> context; // from --context
  // Directories a custom descriptor's `inherits` may also name files in (--descriptor-path);
  // without them only its own directory tree and the built-in descriptors are reachable.
  std::vector<std::string> descriptor_search_path;
  // The process environment as far as it matters: GOOS, GOARCH, LLGO_WASI_THREADS,
  // LLGO_WASM_CONTEXT. Other entries are ignored.
  std::map<std::string, std::string> environment;
};

// The complete, immutable result of resolving a Query.
struct ResolvedTarget {
  // The target's decided properties. build_tags here is the full tag set that
  // //llgo:build constraints are evaluated against (sorted, unique), and
  // capabilities.context is the chosen context backend.
  const TargetSpec spec;
  const Origin goos_origin;
  const Origin goarch_origin;
  // Build-affecting environment values, normalized ("" -> "0" for LLGO_WASI_THREADS).
  const std::map<std::string, std::string> environment;
  // Environment values the named target won over (e.g. GOOS=wasip1 under -target wasm).
  const std::map<std::string, std::string> overridden_environment;
  // The descriptor files merged into this target, parents first.
  const std::vector<std::string> descriptor_files;

  bool implied_goos() const { return goos_origin == Origin::Target; }
  bool implied_goarch() const { return goarch_origin == Origin::Target; }
  bool operator==(const ResolvedTarget&) const = default;
};

nlohmann::json target_to_json(const ResolvedTarget&);
// Throws DriverError naming the offending key when the JSON is not a resolved target.
ResolvedTarget target_from_json(const nlohmann::json&);

// Query <-> JSON, for the C API: {"target", "goos", "goarch", "context", "env": {K: V},
// "descriptor_path": [DIR, ...]}.
Query query_from_json(const nlohmann::json&);

}  // namespace llgo_wasm
