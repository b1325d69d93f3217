#!/usr/bin/env node
// Runs a Go js/wasm program (GOOS=js GOARCH=wasm, built by Debian's Go) under this Node.
//
//   node run-go-js-wasm.cjs WASM_EXEC_JS PROGRAM.wasm [ARG...]
//
// WASM_EXEC_JS is the Go release's own support file, "$(go env GOROOT)/misc/wasm/wasm_exec.js".
// This does what Go's misc/wasm/wasm_exec_node.js does, less its assignments to
// globalThis.crypto and globalThis.performance: Node >= 24 has both, read-only, and the
// assignment throws. The program's exit status becomes ours; like Go's runner, a program that
// leaves nothing to do (a deadlock) is resumed once so that Go prints its own error.
'use strict';

if (process.argv.length < 4) {
  console.error('usage: node run-go-js-wasm.cjs WASM_EXEC_JS PROGRAM.wasm [ARG...]');
  process.exit(2);
}
const [wasmExecJs, program, ...programArguments] = process.argv.slice(2);

globalThis.require = require;
globalThis.fs = require('fs');
globalThis.TextEncoder = require('util').TextEncoder;
globalThis.TextDecoder = require('util').TextDecoder;
require(require('path').resolve(wasmExecJs));

const go = new Go();
go.argv = [program, ...programArguments];
go.env = Object.assign({ TMPDIR: require('os').tmpdir() }, process.env);
go.exit = process.exit;
WebAssembly.instantiate(fs.readFileSync(program), go.importObject).then((result) => {
  process.on('exit', (code) => {
    if (code === 0 && !go.exited) {
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  return go.run(result.instance);
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
