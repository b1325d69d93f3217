// main.js: starts goroutines.mjs (an Emscripten ES module) in this page. The program's workers
// call Module.onGoroutineProgress after each chunk; that moves their bars. What it prints goes to
// #output. When it exits, <body data-exit-status> records the status (the browser test waits for it).
import createModule from './goroutines.mjs';

const workers = document.querySelector('#workers');
const output = document.querySelector('#output');
const bars = new Map();

function bar(worker) {
  if (!bars.has(worker)) {
    const row = document.createElement('div');
    row.className = 'row';
    row.innerHTML = `<span>goroutine ${worker}</span><div class="bar"><div class="fill"></div></div><span class="count"></span>`;
    workers.append(row);
    bars.set(worker, { fill: row.querySelector('.fill'), count: row.querySelector('.count') });
  }
  return bars.get(worker);
}

function finish(status) {
  if (document.body.dataset.exitStatus !== undefined) return;
  document.querySelector('#status').textContent = `exited with status ${status}`;
  document.body.dataset.exitStatus = String(status);
}

createModule({
  print: (line) => output.append(line + '\n'),
  printErr: (line) => output.append(line + '\n'),
  onGoroutineProgress(worker, chunk, chunks, primes) {
    const { fill, count } = bar(worker);
    fill.style.width = `${(100 * chunk) / chunks}%`;
    count.textContent = `${primes} primes (chunk ${chunk}/${chunks})`;
  },
  onExit: finish,
}).catch((error) => {
  if (error && error.name === 'ExitStatus') finish(error.status);
  else {
    output.append(`failed: ${error}\n`);
    finish(134);
  }
});
