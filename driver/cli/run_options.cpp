// `llgo-wasm run`: the options before the program are llgo-wasm's, everything from the program on
// is the program's (its --help included). This file reads the options; run_command.cpp runs.
#include "command_line.hpp"

#include <algorithm>
#include <iostream>

#include "llgo_wasm/error.hpp"

#if LLGO_WASM_HAVE_LINK
#include "run_command.hpp"
#endif

namespace llgo_wasm::cli {

int run_options_command(const std::vector<std::string>& rest) {
#if LLGO_WASM_HAVE_LINK
  RunWords words = split_run_words(rest);
  if (std::find_if(words.options.begin(), words.options.end(), [](const std::string& a) { return a == "--help" || a == "-h"; }) !=
      words.options.end()) {
    std::cout << kRunUsage << "\n" << kCommonHelp;
    return 0;
  }
  Arguments arguments = parse_arguments("run", words.options, kRunValueOptions, kRunFlagOptions, false);
  RunRequest request;
  request.query = arguments.query;
  request.target_named = arguments.query.target || arguments.query.goos || arguments.query.goarch;
  request.engine = single(arguments, "--engine");
  request.print_command = arguments.flags.count("--print-command") > 0;
  request.json = arguments.flags.count("--json") > 0;
  request.list_engines = arguments.flags.count("--list-engines") > 0;
  request.program_and_arguments = words.program_and_arguments;
  return run_command(request);
#else
  (void)rest;
  throw DriverError("run: this llgo-wasm was built without the link pipeline (driver/link), which `run` needs");
#endif
}

}  // namespace llgo_wasm::cli
