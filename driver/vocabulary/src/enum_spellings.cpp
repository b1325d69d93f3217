// The spelling of every target enum, written once, as nlohmann serialisations
// (NLOHMANN_JSON_SERIALIZE_ENUM); to_string, parse_* and the *_names lists read them. (Variants
// and context backends are open sets of names, listed in targets/schema.json.)
// nlohmann maps an unknown spelling to the first entry, so parse_* checks membership
// first and never relies on that fallback.
#include <array>
#include <string>

#include <nlohmann/json.hpp>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

NLOHMANN_JSON_SERIALIZE_ENUM(AsyncifyMode, {{AsyncifyMode::None, "none"},
                                            {AsyncifyMode::Emscripten, "emscripten"},
                                            {AsyncifyMode::PostLink, "post-link"}})
NLOHMANN_JSON_SERIALIZE_ENUM(ExceptionModel, {{ExceptionModel::None, "none"},
                                              {ExceptionModel::Legacy, "legacy"},
                                              {ExceptionModel::Exnref, "exnref"},
                                              {ExceptionModel::Emscripten, "emscripten"},
                                              {ExceptionModel::Host, "host"}})
NLOHMANN_JSON_SERIALIZE_ENUM(StackMode, {{StackMode::Shared, "shared"}, {StackMode::Separate, "separate"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Origin, {{Origin::Target, "target"},
                                      {Origin::Flag, "flag"},
                                      {Origin::Environment, "environment"},
                                      {Origin::Host, "host"}})

namespace {

// Every enumerator of an enum, in declaration order (the enums are dense from 0).
template <typename Enum>
constexpr std::size_t kCount = 0;
template <> constexpr std::size_t kCount<AsyncifyMode> = 3;
template <> constexpr std::size_t kCount<ExceptionModel> = 5;
template <> constexpr std::size_t kCount<StackMode> = 2;
template <> constexpr std::size_t kCount<Origin> = 4;

// The spellings, built once from the nlohmann serialisations above.
template <typename Enum>
const std::vector<std::string_view>& spellings() {
  static const std::array<std::string, kCount<Enum>> storage = [] {
    std::array<std::string, kCount<Enum>> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = nlohmann::json(static_cast<Enum>(i)).get<std::string>();
    return out;
  }();
  static const std::vector<std::string_view> views(storage.begin(), storage.end());
  return views;
}

template <typename Enum>
std::string_view spelling(Enum value) {
  return spellings<Enum>().at(static_cast<std::size_t>(value));
}

template <typename Enum>
std::optional<Enum> parse(std::string_view text) {
  const auto& names = spellings<Enum>();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(AsyncifyMode v) { return spelling(v); }
std::string_view to_string(ExceptionModel v) { return spelling(v); }
std::string_view to_string(StackMode v) { return spelling(v); }
std::string_view to_string(Origin v) { return spelling(v); }
std::optional<AsyncifyMode> parse_asyncify_mode(std::string_view s) { return parse<AsyncifyMode>(s); }
std::optional<ExceptionModel> parse_exception_model(std::string_view s) { return parse<ExceptionModel>(s); }
std::optional<StackMode> parse_stack_mode(std::string_view s) { return parse<StackMode>(s); }
std::optional<Origin> parse_origin(std::string_view s) { return parse<Origin>(s); }
const std::vector<std::string_view>& asyncify_mode_names() { return spellings<AsyncifyMode>(); }
const std::vector<std::string_view>& exception_model_names() { return spellings<ExceptionModel>(); }
const std::vector<std::string_view>& stack_mode_names() { return spellings<StackMode>(); }
const std::vector<std::string_view>& origin_names() { return spellings<Origin>(); }

std::string context_build_tag(const ContextBackend& context) {
  std::string tag = "llgo.context_";
  for (char c : context) tag += c == '-' ? '_' : c;
  return tag;
}

std::string stacks_build_tag(StackMode stacks) { return "llgo.stacks_" + std::string(to_string(stacks)); }

}  // namespace llgo_wasm
