#!/usr/bin/env python3
"""bench/run.py: runs every llgo-wasm benchmark in one invocation (bench/llgo_bench, one module per
job; what it runs and its options: bench/llgo_bench/__init__.py, or --help)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from llgo_bench.main import main  # noqa: E402
from llgo_bench.programs import BenchError  # noqa: E402

if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print(f"bench/run.py: {error}", file=sys.stderr)
        sys.exit(1)
