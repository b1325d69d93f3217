// Unit tests (node --test) of findMemoryImport in run-wasi-threads.mjs: the import-section reader
// that gives the runner the shared memory's limits, on hand-made module binaries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findMemoryImport } from './run-wasi-threads.mjs';

const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const name = (text) => [text.length, ...new TextEncoder().encode(text)];
const section = (id, body) => [id, body.length, ...body]; // bodies here stay below 128 bytes
const module = (...sections) => new Uint8Array([...header, ...sections.flat()]);

// A type section with one () -> () function type, so a function import has something to name.
const typeSection = section(1, [0x01, 0x60, 0x00, 0x00]);

test('finds a shared memory imported after function, table, global and tag imports', () => {
  const imports = [
    0x05,
    ...name('wasi_snapshot_preview1'), ...name('proc_exit'), 0x00, 0x00,
    ...name('env'), ...name('table'), 0x01, 0x70, 0x00, 0x01,
    ...name('env'), ...name('g'), 0x03, 0x7f, 0x01,
    ...name('env'), ...name('tag'), 0x04, 0x00, 0x00,
    ...name('env'), ...name('memory'), 0x02, 0x03, 0x02, 0x80, 0x80, 0x04,
  ];
  assert.deepEqual(findMemoryImport(module(typeSection, section(2, imports))), {
    module: 'env', name: 'memory', shared: true, memory64: false, minimum: 2n, maximum: 65536n,
  });
});

test('reports an unshared memory without a maximum as such', () => {
  const imports = [0x01, ...name('js'), ...name('mem'), 0x02, 0x00, 0x11];
  assert.deepEqual(findMemoryImport(module(section(2, imports))), {
    module: 'js', name: 'mem', shared: false, memory64: false, minimum: 17n, maximum: undefined,
  });
});

test('flags a 64-bit memory', () => {
  const imports = [0x01, ...name('env'), ...name('memory'), 0x02, 0x07, 0x01, 0x02];
  assert.equal(findMemoryImport(module(section(2, imports))).memory64, true);
});

test('returns null without an import section or without a memory import', () => {
  assert.equal(findMemoryImport(module(typeSection)), null);
  const imports = [0x01, ...name('wasi'), ...name('thread-spawn'), 0x00, 0x00];
  assert.equal(findMemoryImport(module(typeSection, section(2, imports))), null);
});

test('rejects what is not a core module, and truncated input', () => {
  assert.throws(() => findMemoryImport(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00])),
    /not a WebAssembly core module/);
  const imports = [0x01, ...name('env'), ...name('memory'), 0x02, 0x03, 0x02];
  assert.throws(() => findMemoryImport(module(section(2, imports))), /truncated module/);
});
