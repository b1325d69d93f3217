#!/usr/bin/env node
// shared-chromium.mjs: one headless Chromium for a whole ctest run, so that each browser case
// opens a fresh context in a running browser (a fraction of a second) instead of starting a
// browser of its own (seconds of CPU each).
//
//   node shared-chromium.mjs start STATE_FILE   starts Chromium (chromium.mjs's flags, a fresh
//                                               profile), writes {pid, wsEndpoint, folder} to
//                                               STATE_FILE and exits; the browser stays
//   node shared-chromium.mjs stop STATE_FILE    stops it and removes its folder and STATE_FILE
//
// ctest runs `start` as a fixture's setup and `stop` as its cleanup (cmake/LlgoWasmBrowserTests.cmake);
// run-in-chromium.mjs connects to the browser STATE_FILE names when LLGO_WASM_SHARED_CHROMIUM
// points at it and the browser is alive, and starts its own otherwise. The browser must not
// outlive the run that started it: `start` also leaves a watchdog that stops the browser when the
// process that ran `start` (ctest) is gone, whichever way it ended. Options: --chromium PATH
// (default $CHROMIUM, else /usr/bin/chromium). Exit status 125: the browser could not start.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_FLAGS, processExists as alive } from './chromium.mjs';

const HERE = fileURLToPath(import.meta.url);

function readState(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function stopBrowser(state) {
  if (!state) return;
  if (state.pid && alive(state.pid)) {
    try {
      process.kill(-state.pid, 'SIGKILL');   // its process group: the renderers and helpers too
    } catch {
      try { process.kill(state.pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
    }
  }
  if (state.folder) rmSync(state.folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

async function start(file, chromium) {
  stopBrowser(readState(file));   // one a killed run left behind
  const folder = mkdtempSync(path.join(os.tmpdir(), `llgo-wasm-chromium-shared-${process.pid}-`));
  const log = path.join(folder, 'chromium.log');
  const logFd = openSync(log, 'w');
  const browser = spawn(chromium, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${path.join(folder, 'profile')}`, 'about:blank'], {
    detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, TMPDIR: folder },
  });
  closeSync(logFd);
  browser.on('error', () => {});
  // Chromium says where its DevTools endpoint is on stderr: "DevTools listening on ws://...".
  const deadline = Date.now() + 60000;
  let endpoint = null;
  while (!endpoint && Date.now() < deadline && browser.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const match = /DevTools listening on (ws:\/\/\S+)/.exec(readFileSync(log, 'utf8'));
    if (match) endpoint = match[1];
  }
  if (!endpoint) {
    stopBrowser({ pid: browser.pid, folder });
    process.stderr.write(`shared-chromium: ${chromium} did not start (${browser.exitCode === null ? 'no DevTools endpoint within 60 s' : `exit ${browser.exitCode}`})\n`);
    process.exit(125);
  }
  writeFileSync(file, JSON.stringify({ pid: browser.pid, wsEndpoint: endpoint, folder }) + '\n');
  // The watchdog: stops the browser once the process that started it (ctest) is gone.
  const watchdog = spawn(process.execPath, [HERE, 'watch', file, String(process.ppid), String(browser.pid)],
    { detached: true, stdio: 'ignore' });
  watchdog.unref();
  browser.unref();
  process.stdout.write(`shared Chromium ${browser.pid} at ${endpoint} (state: ${file})\n`);
}

async function watch(file, ownerPid, browserPid) {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (!alive(browserPid)) return;
    if (!alive(ownerPid)) {
      const state = readState(file);
      stopBrowser(state && state.pid === browserPid ? state : { pid: browserPid });
      if (state && state.pid === browserPid) rmSync(file, { force: true });
      return;
    }
  }
}

const [command, file, ...rest] = process.argv.slice(2);
let chromium = process.env.CHROMIUM || '/usr/bin/chromium';
if (rest[0] === '--chromium' && rest[1]) chromium = rest[1];
if (command === 'start' && file) {
  await start(path.resolve(file), chromium);
} else if (command === 'stop' && file) {
  stopBrowser(readState(file));
  rmSync(file, { force: true });
} else if (command === 'watch' && file && rest.length === 2) {
  await watch(file, Number(rest[0]), Number(rest[1]));
} else {
  process.stderr.write('usage: node shared-chromium.mjs (start|stop) STATE_FILE [--chromium PATH]\n');
  process.exit(2);
}
