# LlgoWasmPackage.cmake: `cpack -G DEB` (run in a build tree) packages what `cmake --install`
# installs, under /usr. Dependencies: the shared libraries the CLI and libllgo_wasm.so need, from
# dpkg-shlibdeps (libc6, libstdc++6, libgcc-s1: libcrypto is linked in statically); the LLVM 19
# the WASI toolchain files compile with is recommended. Emscripten 3.1.69, the WASI sysroots,
# Binaryen and Node 24 are not Debian packages of those versions: tools/setup-toolchain.sh (or
# EMSDK, WASI_SDK_PATH, WASMOPT, NODE) provides them, as it does for a checkout.
include_guard(GLOBAL)

set(CPACK_PACKAGE_NAME llgo-wasm)
set(CPACK_PACKAGE_VENDOR "llgo-wasm")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "WebAssembly toolchain layer of LLGo: goroutines on WebAssembly")
set(CPACK_PACKAGE_DESCRIPTION "Target descriptors, the llgo-wasm driver (CLI, C API with CMake and pkg-config \
files), CMake toolchain files and the goroutine runtime built for Emscripten wasm32 and Memory64, WASI \
Preview 1 and wasi-threads.")
set(CPACK_PACKAGE_CONTACT "llgo-wasm maintainers <llgo-wasm@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-19, lld-19, llvm-19, cmake (>= 3.25)")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libssl-dev, pkgconf, golang-go")
set(CPACK_GENERATOR DEB)
include(CPack)
