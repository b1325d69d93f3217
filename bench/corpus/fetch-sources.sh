#!/usr/bin/env bash
# bench/corpus/fetch-sources.sh DIR: puts the corpus sources in DIR, fetched at benchmark time
# from Debian's source packages (zlib, sqlite3; trixie, through apt with a private source list,
# never committed), and generates sqlite's amalgamation (sqlite3.c, shell.c; needs tclsh and a
# host C compiler). Prints two lines: ZLIB_SOURCE_DIR=... and SQLITE_AMALGAMATION_DIR=...
# Reuses what an earlier run left in DIR. The apt index comes from the toolchain setup's trixie
# lists when present (copied, never modified), else from `apt-get update` on the private list.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
apt_dir=$out/apt
mirror=${MIRROR:-http://deb.debian.org/debian}
toolchain=${LLGO_WASM_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llgo-wasm/toolchain-v1}
opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
      -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
      -o Dir::State::status=/var/lib/dpkg/status -o APT::Sandbox::User=root)

orig() { ls "$out"/dl/"$1"_*.orig.tar.* 2>/dev/null | awk '!/-www/ && !found { print; found = 1 }'; }
top_folder() { tar tf "$1" | awk -F/ 'NR == 1 { print $1 }'; }
if [ -z "$(orig zlib)" ] || [ -z "$(orig sqlite3)" ]; then
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$out/dl"
  printf 'deb-src %s trixie main\n' "$mirror" > "$apt_dir/sources.list"
  if ls "$toolchain"/.build/apt/lists/*trixie_main_source_Sources* >/dev/null 2>&1; then
    cp "$toolchain"/.build/apt/lists/*trixie_InRelease "$toolchain"/.build/apt/lists/*trixie_main_source_Sources* "$apt_dir/lists/"
  else
    apt-get "${opts[@]}" update >&2
  fi
  # The orig tarballs are what is used; a missing .dsc or Debian diff is not an error.
  (cd "$out/dl" && apt-get "${opts[@]}" source --download-only zlib sqlite3 >&2 || true)
fi
zlib_tar=$(orig zlib); sqlite_tar=$(orig sqlite3)
[ -n "$zlib_tar" ] && [ -n "$sqlite_tar" ] || { echo "fetch-sources: could not download zlib/sqlite3 sources into $out/dl" >&2; exit 1; }

zlib_dir=$out/$(top_folder "$zlib_tar")
[ -f "$zlib_dir/test/minigzip.c" ] || tar xf "$zlib_tar" -C "$out"
sqlite_dir=$out/$(top_folder "$sqlite_tar")
[ -f "$sqlite_dir/configure" ] || tar xf "$sqlite_tar" -C "$out"
amalgamation=$out/sqlite-amalgamation
if [ ! -f "$amalgamation/sqlite3.c" ] || [ ! -f "$amalgamation/shell.c" ]; then
  command -v tclsh >/dev/null || { echo "fetch-sources: tclsh (Debian package tcl) is needed for sqlite's amalgamation" >&2; exit 1; }
  rm -rf "$amalgamation" && mkdir -p "$amalgamation"
  (cd "$amalgamation" && "$sqlite_dir/configure" --disable-tcl >&2 && make sqlite3.c shell.c >&2)
fi
echo "ZLIB_SOURCE_DIR=$zlib_dir"
echo "SQLITE_AMALGAMATION_DIR=$amalgamation"
