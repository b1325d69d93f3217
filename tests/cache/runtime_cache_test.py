"""The build through the package cache (LLGO_WASM_PACKAGE_CACHE=ON) with nginx as the remote, in
both projects that build the runtime (a preset's target build, and the runtime alone as `cmake
--install` builds it): a first checkout with an empty local cache compiles the runtime libraries and stores them; a
second checkout (a copy of the runtime and the build files, another path) with its own empty
local cache compiles nothing: every library is a remote hit, byte for byte what the first built.

usage: runtime_cache_test.py --cli path/to/llgo-wasm --target NAME [--toolchain-file FILE]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nginx_dav import NginxDav  # noqa: E402
from runtime_build import build_runtime  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
OPTIONS = None


def checkout_copy(destination):
    """What a target build reads of a checkout, copied (tracked files only)."""
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    return destination


class RuntimeCacheTest(unittest.TestCase):
    def test_a_second_checkout_builds_the_runtime_from_remote_hits(self):
        # Both projects that build the runtime: the target build of a preset (cmake/wasm-variant)
        # and the runtime alone as `cmake --install` builds it (cmake/runtime-install).
        for project in ("wasm-variant", "runtime-install"):
            with self.subTest(project=project):
                self.second_checkout_hits(project)

    def second_checkout_hits(self, project):
        work = Path(tempfile.mkdtemp(prefix="llgo-wasm-runtime-cache-"))
        server = NginxDav().start()
        try:
            remote = server.url("/team")
            def build(name):
                return build_runtime(checkout_copy(work / name), OPTIONS.target, OPTIONS.toolchain_file,
                                     "RelWithDebInfo", OPTIONS.cli, remote, work / ("cache-" + name), project=project,
                                     runtime_only=True)

            first = build("a")
            self.assertGreater(first.misses, 0)
            self.assertEqual(first.hits, 0)
            self.assertTrue(first.targets, "nothing was compiled on a cold cache")
            self.assertEqual(first.warnings, [])
            # Libraries built differently (another context, another stack mode) never share a key.
            self.assertEqual(len(first.keys), first.misses, first.keys)
            self.assertEqual(len(set(first.keys.values())), len(first.keys), f"two libraries share a key: {first.keys}")
            second = build("b")
            self.assertEqual((second.hits, second.misses), (first.misses, 0))
            self.assertEqual(second.targets, [], "a library was compiled although its key hit")
            self.assertEqual(second.warnings, [])
            archives = sorted(p.name for p in first.archive_dir.glob("*.a"))
            self.assertTrue(archives)
            for name in archives:
                self.assertEqual((second.archive_dir / name).read_bytes(), (first.archive_dir / name).read_bytes(), name)
        finally:
            server.close()
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--toolchain-file", help="relative to the checkout; none: the host compiler")
    OPTIONS, rest = parser.parse_known_args()
    OPTIONS.cli = os.path.abspath(OPTIONS.cli)
    unittest.main(argv=[sys.argv[0], "-v", *rest])
