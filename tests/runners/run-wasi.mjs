#!/usr/bin/env node
// Runs a WASI preview1 command module (the P1 variant) under Node's node:wasi.
//
//   node run-wasi.mjs MODULE.wasm [ARG...]
//
// The guest sees argv = [MODULE.wasm, ARG...] and this process's environment; stdin, stdout and
// stderr are this process's. Its exit status (proc_exit, or 0 when _start returns) becomes ours.
// No directory is pre-opened: the guest has no file-system access.
//
// Our own statuses: 2 for a usage error, 126 when the module cannot be read, compiled or
// instantiated, 134 when it traps (like a C abort(): wasi-libc's abort is a trap).
// Limits: tested with Node 24 (exnref modules need it); threads need run-wasi-threads.mjs.

import { readFile } from 'node:fs/promises';

const EXIT_USAGE = 2;
const EXIT_CANNOT_LOAD = 126;
const EXIT_TRAP = 134;

// node:wasi warns that it is experimental on every run; the guest's stderr is not the place.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') console.error(warning);
});
const { WASI } = await import('node:wasi');

function die(status, message) {
  console.error(`run-wasi: ${message}`);
  process.exit(status);
}

const [modulePath, ...guestArguments] = process.argv.slice(2);
if (!modulePath || modulePath === '--help' || modulePath === '-h') {
  die(EXIT_USAGE, 'usage: node run-wasi.mjs MODULE.wasm [ARG...]');
}

let instance;
let wasi;
try {
  const bytes = await readFile(modulePath);
  const module = await WebAssembly.compile(bytes);
  wasi = new WASI({
    version: 'preview1',
    args: [modulePath, ...guestArguments],
    env: process.env,
    returnOnExit: true,
  });
  instance = await WebAssembly.instantiate(module, wasi.getImportObject());
} catch (error) {
  die(EXIT_CANNOT_LOAD, `cannot load ${modulePath}: ${error.message}`);
}

if (typeof instance.exports._start !== 'function') {
  die(EXIT_CANNOT_LOAD, `${modulePath} is not a WASI command: it exports no _start function`);
}

try {
  process.exitCode = wasi.start(instance);
} catch (error) {
  die(EXIT_TRAP, `${modulePath} trapped: ${error.stack ?? error}`);
}
