// `llgo-wasm link ...`: resolves the target and hands the link line to driver/link (its own
// --help lives there); also emcc's wasm-opt, through the shim a narrowed Emscripten link installs.
#include "command_line.hpp"

#include "llgo_wasm/error.hpp"

#if LLGO_WASM_HAVE_LINK
#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/emscripten_asyncify.hpp"
#include "llgo_wasm/link_command.hpp"
#include "llgo_wasm/resolve.hpp"
#endif

namespace llgo_wasm::cli {

int link_command(const std::vector<std::string>& words) {
#if LLGO_WASM_HAVE_LINK
  // emcc's wasm-opt, through the shim a narrowed Emscripten link installs: it needs no target.
  if (!words.empty() && words[0] == llgo_wasm::emscripten_wasm_opt_shim_flag) {
    return llgo_wasm::run_emscripten_wasm_opt_shim(std::vector<std::string>(words.begin() + 1, words.end()));
  }
#endif
  const Arguments arguments = parse_arguments("link", words, {}, {}, true);
#if LLGO_WASM_HAVE_LINK
  ResolvedTarget target = resolve_target(builtin_descriptors(), arguments.query);
  std::optional<std::uint64_t> program_stack_size;
  if (query_sets_stack_size(arguments.query)) {
    program_stack_size = target.spec.capabilities.stacks == StackMode::Shared ? target.spec.default_stack_size
                                                                             : target.spec.separate_stack_size;
  }
  return llgo_wasm::run_link_command(target, arguments.rest, program_stack_size);
#else
  (void)arguments;
  throw DriverError("link: this llgo-wasm was built without the link pipeline (driver/link)");
#endif
}

}  // namespace llgo_wasm::cli
