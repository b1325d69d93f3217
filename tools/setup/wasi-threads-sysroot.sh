#!/usr/bin/env bash
# Builds the wasm32-wasip1-threads sysroot (P1T) from Debian's wasi-libc source package, and a
# clang resource-dir shim that gives clang-19 its compiler-rt builtins for the WASI triples.
#
#   tools/setup/wasi-threads-sysroot.sh PREFIX
#
# Produces:
#   PREFIX/wasi-sysroot-threads/{include,lib}/wasm32-wasip1-threads   (+ wasm32-wasi-threads links)
#     libc.a        bookworm's wasi-libc compiled for shared memory (atomics, bulk memory, real
#                   thread-local errno, locked malloc) plus llgo's wasi-threads pthread layer
#                   (tools/setup/wasi-threads/pthread_wasi_threads.c) and its wasi_thread_start
#     libsetjmp.a   setjmp/longjmp runtime for LLVM 19's lowering (-mllvm -wasm-enable-sjlj)
#     crt1*.o       crt1-command.o replaced so that wasm-ld does not wrap wasi_thread_start
#                   in constructor/destructor calls; empty libm/libpthread/... placeholders
#   PREFIX/clang-resource-19/   use with `clang-19 -resource-dir PREFIX/clang-resource-19`
#
# Why not a stock THREAD_MODEL=posix wasi-libc: no Debian release ships a wasm32-wasip1-threads
# wasi-libc, and the only wasi-libc source this archive serves is bookworm's
# 0.0~git20220510.9886d3d-2 (the trixie and sid pool files are gone), which predates wasi-libc's
# pthread support: its THREAD_MODEL=posix stops at `#error "multiple threads not supported in musl
# yet"`. So the libc is built in its single-thread model but with the shared-memory features, and
# the threads come from the small layer above. Limits are listed in docs/p1t.md.
#
# Idempotent: a stamp records the source version and a digest of this script and its sources; a
# second run with nothing changed only re-checks. Uses a private apt source list under
# PREFIX/.build (never the system's). Needs: apt-get, clang-19, llvm-ar-19, llvm-nm-19,
# wasm-ld-19, make, patch, tar, xz, sha256sum, flock, libclang-rt-19-dev-wasm32.
# Knobs: MIRROR (Debian archive URL), LLGO_WASM_JOBS (make -j, default 2), CLANG, LLVM_AR,
# LLVM_NM, WASM_LD (tool names).
set -euo pipefail

readonly WASI_LIBC_VERSION="0.0~git20220510.9886d3d-2"
readonly WASI_LIBC_UPSTREAM_VERSION="0.0~git20220510.9886d3d"
readonly WASI_LIBC_ORIG_SHA256="8f9b802736a856942839d32966937c389f46e9f156415a549a6675b7535e5f74"
readonly WASI_LIBC_DEBIAN_SHA256="d29dd149f8e2cd8ac72952801a3b03ead259d90c164bf51c8aa0daf1cee64476"
# MIRROR: the Debian archive to fetch the source package from (same knob as setup-toolchain.sh).
readonly DEBIAN_SOURCE_LINE="deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${MIRROR:-http://deb.debian.org/debian} bookworm main"
readonly TRIPLE="wasm32-wasip1-threads"
readonly TRIPLE_ALIAS="wasm32-wasi-threads"
readonly CC_BIN="${CLANG:-clang-19}" AR_BIN="${LLVM_AR:-llvm-ar-19}" NM_BIN="${LLVM_NM:-llvm-nm-19}"
readonly WASM_LD_BIN="${WASM_LD:-wasm-ld-19}"

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
layer_dir="$script_dir/wasi-threads"
started_at=$(date +%s)

fail() {
  echo "wasi-threads-sysroot: error: $*" >&2
  exit 1
}
step() { echo "wasi-threads-sysroot: [$(( $(date +%s) - started_at ))s] $*"; }

[[ $# -eq 1 && -n "$1" ]] || fail "usage: $0 PREFIX   (PREFIX receives wasi-sysroot-threads/ and clang-resource-19/)"
mkdir -p "$1" || fail "cannot create PREFIX '$1'"
prefix="$(cd "$1" && pwd)"
sysroot="$prefix/wasi-sysroot-threads"
resource_shim="$prefix/clang-resource-19"
work="$prefix/.build/wasi-threads-sysroot"

# One run at a time per PREFIX (tools/setup-toolchain.sh and a developer may both start one).
mkdir -p "$work"
exec 9>"$work.lock"
flock 9 || fail "cannot lock $work.lock"

for tool in apt-get "$CC_BIN" "$AR_BIN" "$NM_BIN" "$WASM_LD_BIN" make patch tar xz sha256sum flock; do
  command -v "$tool" >/dev/null ||
    fail "'$tool' not found on PATH; install it (Debian: clang-19 lld-19 llvm-19 make patch xz-utils)"
done
step "using $("$CC_BIN" --version | head -1), $("$WASM_LD_BIN" --version | head -1)"

# ---- The clang resource-dir shim ------------------------------------------------------------
# clang-19 looks for the builtins under <resource-dir>/lib/<os>/libclang_rt.builtins-wasm32.a,
# where <os> is wasi, wasip1 or wasip2 (wasm32-wasip1-threads uses wasip1, wasm32-wasi-threads
# uses wasi). Debian installs only lib/wasi/, so the wasip1 triples find nothing without the shim.
make_resource_shim() {
  local real_resource_dir builtins os
  real_resource_dir="$("$CC_BIN" -print-resource-dir)"
  builtins="$real_resource_dir/lib/wasi/libclang_rt.builtins-wasm32.a"
  [[ -f "$builtins" ]] || fail "compiler-rt builtins for wasm32 not found at $builtins; install libclang-rt-19-dev-wasm32"
  # Adds what is missing and keeps what exists: tools/setup-toolchain.sh makes the same shim.
  link_if_missing() {
    [[ -e "$2" || -L "$2" ]] && return 0
    mkdir -p "$(dirname "$2")"
    ln -s "$1" "$2"
  }
  link_if_missing "$real_resource_dir/include" "$resource_shim/include"
  for os in wasi wasip1 wasip2 wasi-threads wasip1-threads; do
    link_if_missing "$builtins" "$resource_shim/lib/$os/libclang_rt.builtins-wasm32.a"
  done
  [[ -f "$resource_shim/lib/wasip1-threads/libclang_rt.builtins-wasm32.a" ]] ||
    fail "$resource_shim/lib/wasip1-threads/libclang_rt.builtins-wasm32.a is a dangling link; delete $resource_shim and re-run"
  step "resource-dir shim: $resource_shim -> $builtins"
}
make_resource_shim

# ---- Up to date? ------------------------------------------------------------------------------
inputs_digest="$( { echo "$WASI_LIBC_VERSION"; "$CC_BIN" --version | head -1; cat "${BASH_SOURCE[0]}" "$layer_dir"/*; } | sha256sum | cut -c1-64)"
stamp="$sysroot/.llgo-wasm-sysroot-stamp"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$inputs_digest" && -f "$sysroot/lib/$TRIPLE/libc.a" ]]; then
  step "up to date: $sysroot (wasi-libc $WASI_LIBC_VERSION); nothing to do"
  exit 0
fi

# ---- Source: Debian's wasi-libc source package, through a private apt source list ------------
apt_dir="$work/apt"
download_dir="$work/download"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$download_dir"
echo "$DEBIAN_SOURCE_LINE" > "$apt_dir/sources.list"
apt_options=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
  -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
  -o APT::Sandbox::User=root -q
)
orig_tarball="$download_dir/wasi-libc_${WASI_LIBC_UPSTREAM_VERSION}.orig.tar.xz"
debian_tarball="$download_dir/wasi-libc_${WASI_LIBC_VERSION}.debian.tar.xz"
verified() { [[ -f "$1" ]] && echo "$2  $1" | sha256sum --check --status; }
if ! verified "$orig_tarball" "$WASI_LIBC_ORIG_SHA256" || ! verified "$debian_tarball" "$WASI_LIBC_DEBIAN_SHA256"; then
  step "fetching wasi-libc $WASI_LIBC_VERSION source (private apt lists in $apt_dir)"
  apt-get "${apt_options[@]}" update >"$work/apt-update.log" 2>&1 ||
    fail "apt-get update with the private source list failed; see $work/apt-update.log"
  (cd "$download_dir" && apt-get "${apt_options[@]}" source --download-only "wasi-libc=$WASI_LIBC_VERSION") \
    >"$work/apt-source.log" 2>&1 ||
    fail "downloading the wasi-libc $WASI_LIBC_VERSION source package failed; see $work/apt-source.log"
fi
verified "$orig_tarball" "$WASI_LIBC_ORIG_SHA256" || fail "checksum mismatch for $orig_tarball (delete it and re-run)"
verified "$debian_tarball" "$WASI_LIBC_DEBIAN_SHA256" || fail "checksum mismatch for $debian_tarball (delete it and re-run)"

# ---- Unpack and adapt --------------------------------------------------------------------------
source_dir="$work/src/wasi-libc-$WASI_LIBC_UPSTREAM_VERSION"
rm -rf "$work/src" "$work/obj" "$work/stage"
mkdir -p "$work/src"
tar -xJf "$orig_tarball" -C "$work/src"
tar -xJf "$debian_tarball" -C "$source_dir"
step "applying Debian's patches"
while read -r patch_name; do
  [[ -z "$patch_name" || "$patch_name" == \#* ]] && continue
  patch -p1 -s -d "$source_dir" < "$source_dir/debian/patches/$patch_name" || fail "Debian patch $patch_name does not apply"
done < "$source_dir/debian/patches/series"

# edit FILE SED-EXPRESSION EXPECTED-TEXT: apply one edit and prove it took.
edit() {
  sed -i "$2" "$source_dir/$1"
  grep -qF -- "$3" "$source_dir/$1" || fail "adapting $1 failed (expected '$3' after the edit); the source changed?"
}
# The single thread model passes -mthread-model single, which lowers atomics and thread_local
# away; objects built that way are refused by `wasm-ld --shared-memory`. Keep musl's single-thread
# code paths but compile for shared memory, so errno and other thread_local data are per thread.
edit Makefile 's/^CFLAGS += -mthread-model single$/CFLAGS += -matomics -mbulk-memory/' \
  'CFLAGS += -matomics -mbulk-memory'
# Keep pthread.h: the pthread layer implements it.
edit Makefile 's/^MUSL_OMIT_HEADERS += "aio.h" "pthread.h"$/MUSL_OMIT_HEADERS += "aio.h"/' \
  'MUSL_OMIT_HEADERS += "aio.h"'
# dlmalloc takes its spin lock when threads are possible, i.e. whenever atomics are on.
edit dlmalloc/src/dlmalloc.c 's/^#ifdef _REENTRANT$/#if defined(_REENTRANT) || defined(__wasm_atomics__)/' \
  '#if defined(_REENTRANT) || defined(__wasm_atomics__)'

# ---- Build -------------------------------------------------------------------------------------
jobs="${LLGO_WASM_JOBS:-2}"
stage="$work/stage"
step "building wasi-libc (make -j$jobs; about a minute on 2 cores)"
make -C "$source_dir" -j"$jobs" CC="$CC_BIN" AR="$AR_BIN" NM="$NM_BIN" THREAD_MODEL=single \
  EXTRA_CFLAGS="-O2 -DNDEBUG -fno-stack-protector" SYSROOT="$stage" OBJDIR="$work/obj" \
  startup_files libc >"$work/make.log" 2>&1 ||
  fail "building wasi-libc failed; the last lines of $work/make.log:
$(tail -20 "$work/make.log")"
stage_lib="$stage/lib/wasm32-wasi"
for name in m rt pthread crypt util xnet resolv dl; do
  "$AR_BIN" crs "$stage_lib/lib$name.a"
done

step "building the wasi-threads pthread layer and libsetjmp"
layer_cflags=(--target=wasm32-wasi -O2 -matomics -mbulk-memory -Wall -Wextra -Werror
  -isystem "$stage/include" -I "$layer_dir")
layer_obj="$work/obj/llgo-wasi-threads"
mkdir -p "$layer_obj"
install -m 0644 "$layer_dir/setjmp.h" "$stage/include/setjmp.h"
"$CC_BIN" "${layer_cflags[@]}" -c "$layer_dir/pthread_wasi_threads.c" -o "$layer_obj/pthread_wasi_threads.o"
"$CC_BIN" --target=wasm32-wasi -matomics -mbulk-memory -c "$layer_dir/wasi_thread_start.s" -o "$layer_obj/wasi_thread_start.o"
"$CC_BIN" "${layer_cflags[@]}" -mexception-handling -mllvm -wasm-enable-sjlj \
  -c "$layer_dir/pthread_exit_wasi_threads.c" -o "$layer_obj/pthread_exit_wasi_threads.o"
# LLVM 19 defines the __c_longjmp tag (weakly) only in objects built with the sjlj lowering on;
# without it, __builtin_wasm_throw crashes the backend ("undefined tag symbol cannot be weak").
"$CC_BIN" "${layer_cflags[@]}" -mexception-handling -mllvm -wasm-enable-sjlj \
  -c "$layer_dir/setjmp_runtime.c" -o "$layer_obj/setjmp_runtime.o"
# The setjmp runtime goes into libc.a too, so pthread_exit links without -lsetjmp; archive
# members are pulled only when referenced, so nothing else pays for it.
"$AR_BIN" rs "$stage_lib/libc.a" "$layer_obj/pthread_wasi_threads.o" "$layer_obj/wasi_thread_start.o" \
  "$layer_obj/pthread_exit_wasi_threads.o" "$layer_obj/setjmp_runtime.o" 2>/dev/null
"$AR_BIN" crs "$stage_lib/libsetjmp.a" "$layer_obj/setjmp_runtime.o"
# Replace the command start file (see crt1_command_threads.c for why).
"$CC_BIN" "${layer_cflags[@]}" -c "$layer_dir/crt1_command_threads.c" -o "$stage_lib/crt1-command.o"
# musl's pthread.h names struct sched_param, which WASI's sched.h leaves out; without a
# file-scope declaration every includer gets a -Wvisibility warning.
sed -i 's|^#include <sched.h>$|#include <sched.h>\nstruct sched_param; /* llgo-wasm: WASI sched.h omits it */|' "$stage/include/pthread.h"
grep -q 'struct sched_param; /\* llgo-wasm' "$stage/include/pthread.h" || fail "could not adapt pthread.h"

# ---- Lay out the sysroot under the triple's names, then swap it in ---------------------------
new_sysroot="$work/wasi-sysroot-threads"
rm -rf "$new_sysroot"
mkdir -p "$new_sysroot/include" "$new_sysroot/lib"
cp -a "$stage/include" "$new_sysroot/include/$TRIPLE"
cp -a "$stage_lib" "$new_sysroot/lib/$TRIPLE"
ln -s "$TRIPLE" "$new_sysroot/include/$TRIPLE_ALIAS"
ln -s "$TRIPLE" "$new_sysroot/lib/$TRIPLE_ALIAS"
cat > "$new_sysroot/VERSION" <<EOF
wasi-libc $WASI_LIBC_VERSION (Debian source package), single thread model compiled with
-matomics -mbulk-memory, plus llgo-wasm's wasi-threads pthread layer and libsetjmp.
Built by tools/setup/wasi-threads-sysroot.sh with $("$CC_BIN" --version | head -1).
EOF

# ---- Check: a two-thread program links with shared memory against the new sysroot -----------
step "link check: pthread program with --shared-memory"
check_dir="$work/check"
mkdir -p "$check_dir"
cat > "$check_dir/two_threads.c" <<'EOF'
#include <pthread.h>
static void *work(void *argument) { return argument; }
int main(void) {
  pthread_t threads[2];
  for (int i = 0; i < 2; i++) if (pthread_create(&threads[i], 0, work, 0)) return 1;
  for (int i = 0; i < 2; i++) pthread_join(threads[i], 0);
  return 0;
}
EOF
"$CC_BIN" --target="$TRIPLE" --sysroot="$new_sysroot" -resource-dir "$resource_shim" -pthread \
  -matomics -mbulk-memory -O2 "$check_dir/two_threads.c" -o "$check_dir/two_threads.wasm" \
  -Wl,--import-memory,--export-memory,--shared-memory,--max-memory=67108864 \
  >"$check_dir/link.log" 2>&1 || fail "a pthread program does not link against the new sysroot:
$(cat "$check_dir/link.log")"
# The thread entry must be exported as is: a `.command_export` wrapper would run constructors and
# atexit handlers in every thread (see crt1_command_threads.c).
grep -qa 'wasi_thread_start' "$check_dir/two_threads.wasm" ||
  fail "the linked check program does not export wasi_thread_start"
if grep -qa 'command_export' "$check_dir/two_threads.wasm"; then
  fail "wasm-ld wrapped the exports of the check program in constructor calls; crt1-command.o was not replaced"
fi

rm -rf "$sysroot.old"
[[ -e "$sysroot" ]] && mv "$sysroot" "$sysroot.old"
mv "$new_sysroot" "$sysroot"
rm -rf "$sysroot.old"
echo "$inputs_digest" > "$stamp"
step "done: $sysroot (wasi-libc $WASI_LIBC_VERSION, triple $TRIPLE) in $(( $(date +%s) - started_at ))s"
