// wasi-run.mjs: minimal WASI Preview 1 runner for the benchmarks (node wasi-run.mjs MODULE.wasm ARGS...).
// bench/run.py uses the project's tests/runners/run-wasi.mjs when it exists and falls back to
// this one. It passes argv and the environment, preopens nothing, and exits with the module's
// exit status. Needs Node >= 24 for modules whose exceptions are in the exnref encoding.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import { argv, env, exit } from "node:process";

if (argv.length < 3) {
  console.error("usage: node wasi-run.mjs MODULE.wasm [ARGS...]");
  exit(2);
}
const wasi = new WASI({ version: "preview1", args: argv.slice(2), env, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
