// memory-reserve.mjs: what a WebAssembly.Memory costs the process when it is created, by its
// declared initial size (bench/run.py's "memory: reserve at creation" rows; issue 31's question
// whether P1T's 256 MiB initial shared memory costs anything over a small initial size).
//
//   node memory-reserve.mjs INITIAL_PAGES MAXIMUM_PAGES SHARED(0|1)
//
// Prints RESULT {"reserved_kib": ..., "resident_kib": ..., "byte_length": ...}: the growth of the
// process's virtual size (VmSize) and resident set (VmRSS) across `new WebAssembly.Memory`.
import { readFileSync } from 'node:fs';

function status() {
  const text = readFileSync('/proc/self/status', 'utf8');
  const field = (key) => Number(text.match(new RegExp(`^${key}:\\s+(\\d+)`, 'm'))[1]);
  return { size: field('VmSize'), rss: field('VmRSS') };
}

const [initial, maximum, shared] = process.argv.slice(2).map(Number);
if (!(initial >= 0) || !(maximum >= initial) || !(shared === 0 || shared === 1)) {
  console.error('usage: node memory-reserve.mjs INITIAL_PAGES MAXIMUM_PAGES SHARED(0|1)');
  process.exit(2);
}
const before = status();
const memory = new WebAssembly.Memory({ initial, maximum, shared: shared === 1 });
const after = status();
console.log('RESULT ' + JSON.stringify({
  reserved_kib: after.size - before.size, resident_kib: after.rss - before.rss, byte_length: memory.buffer.byteLength,
}));
