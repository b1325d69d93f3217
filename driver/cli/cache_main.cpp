// llgo-wasm-cache: `llgo-wasm cache ...` (the CLI runs this program; see driver/cache/CMakeLists.txt).
#include <iostream>
#include <string>
#include <vector>

#include "llgo_wasm/cache_command.hpp"
#include "llgo_wasm/error.hpp"

int main(int argc, char** argv) {
  try {
    return llgo_wasm::run_cache_command(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const llgo_wasm::DriverError& error) {
    std::cerr << "llgo-wasm: " << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "llgo-wasm: cache: " << error.what() << "\n";
    return 2;
  }
}
