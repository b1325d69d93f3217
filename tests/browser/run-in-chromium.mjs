#!/usr/bin/env node
// run-in-chromium.mjs: runs an llgo-wasm program in a page of headless Chromium and behaves like
// a process running it: the program's stdout and stderr become ours, its exit status ours.
//
//   node run-in-chromium.mjs [OPTIONS] emscripten MODULE.mjs [ARG...]   J32/J64 ES-module build
//   node run-in-chromium.mjs [OPTIONS] wasi MODULE.wasm [ARG...]        P1 through a WASI shim
//   node run-in-chromium.mjs [OPTIONS] page DIR                         a page of its own
//
// OPTIONS: --chromium PATH (default $CHROMIUM, else /usr/bin/chromium), --node-modules DIR (where
// playwright-core and @bjorn3/browser_wasi_shim are; default $LLGO_WASM_NODE_MODULES), --timeout S
// (default 120).
//
// A server on a free loopback port serves page/ (the harness), the module's folder and the shim;
// Chromium (chromium.mjs: Debian's, fresh profile, no network) opens the harness, which runs the
// program with ARGs and this process's environment, as the Node runners do. In `page` mode DIR is
// served instead and its index.html must set `data-exit-status` on <body> when it is done; the
// page's visible text (document.body.innerText, what a person would read) is then our stdout.
// The browser's console messages and the page's uncaught errors are written to stderr, prefixed
// "browser: ", so a failing run shows what the page saw; an uncaught error ends the run (134).
//
// Our own statuses: 2 usage, 124 timed out, 125 the browser or the page could not start or died;
// from the harness: 126 the module could not be loaded, 134 it trapped or aborted.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BrowserStartError, launchChromium } from './chromium.mjs';
import { startStaticServer } from './static-server.mjs';

const EXIT_USAGE = 2;
const EXIT_TIMEOUT = 124;
const EXIT_BROWSER = 125;
const EXIT_TRAP = 134;
const HERE = path.dirname(fileURLToPath(import.meta.url));

function die(status, message) {
  process.stderr.write(`run-in-chromium: ${message}\n`);
  process.exit(status);
}

function parseCommandLine(argv) {
  const options = {
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
    nodeModules: process.env.LLGO_WASM_NODE_MODULES || '',
    timeoutSeconds: 120,
  };
  let i = 0;
  for (; i < argv.length && argv[i].startsWith('--'); i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (value === undefined) die(EXIT_USAGE, `${name} needs a value`);
    if (name === '--chromium') options.chromium = value;
    else if (name === '--node-modules') options.nodeModules = value;
    else if (name === '--timeout' && Number(value) > 0) options.timeoutSeconds = Number(value);
    else die(EXIT_USAGE, `unknown option or bad value: ${name} ${value}`);
  }
  const [kind, target, ...args] = argv.slice(i);
  if (!['emscripten', 'wasi', 'page'].includes(kind) || !target || (kind === 'page' && args.length)) {
    die(EXIT_USAGE, 'usage: node run-in-chromium.mjs [--chromium PATH] [--node-modules DIR] [--timeout S] ' +
      '(emscripten MODULE.mjs | wasi MODULE.wasm) [ARG...] | page DIR');
  }
  if (!options.nodeModules) die(EXIT_USAGE, 'no --node-modules DIR (or LLGO_WASM_NODE_MODULES): where playwright-core is');
  if (!existsSync(target)) die(126, `${target} does not exist`);
  return { ...options, kind, target: path.resolve(target), args };
}

const run = parseCommandLine(process.argv.slice(2));
// The program's environment: ours as it was given (launchChromium points TMPDIR elsewhere).
const programEnvironment = { ...process.env };
let browser = null;
let server = null;
let finished = false;

// The one way out once anything has started: stop the browser and the server, then exit.
async function finish(status, message) {
  if (finished) return;
  finished = true;
  if (message) process.stderr.write(`run-in-chromium: ${message}\n`);
  try {
    await browser?.close();
  } catch (error) {
    process.stderr.write(`run-in-chromium: closing the browser: ${error.message}\n`);
  }
  await server?.close();
  process.exitCode = status;
  // Nothing should be left to wait for; if something is, do not hang on it.
  setTimeout(() => process.exit(status), 2000).unref();
}

for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.on(signal, () => finish(128 + number, `stopped by ${signal}`).then(() => process.exit(128 + number)));
}
setTimeout(() => finish(EXIT_TIMEOUT, `timed out after ${run.timeoutSeconds} s; the browser and server are stopped`),
  run.timeoutSeconds * 1000).unref();

const mounts = run.kind === 'page'
  ? { '/': run.target }
  : {
      '/': path.join(HERE, 'page'),
      '/module/': path.dirname(run.target),
      '/vendor/browser_wasi_shim/': path.join(run.nodeModules, '@bjorn3', 'browser_wasi_shim', 'dist'),
      // the jspi context's glue for P1 (runtime/wasi/jspi_glue.mjs, which reads ../emscripten/jspi_glue.js)
      '/runtime/': path.join(HERE, '..', '..', 'runtime'),
    };
try {
  server = await startStaticServer(mounts);
  browser = await launchChromium({ executablePath: run.chromium, nodeModules: run.nodeModules });
} catch (error) {
  await finish(EXIT_BROWSER, error instanceof BrowserStartError ? error.message : `cannot start: ${error.stack}`);
}

// The harness page: run the module; its end comes through __llgoExit (the `ended` promise).
async function runInHarness(page) {
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => window.llgoHarness);
  const module = `/module/${encodeURIComponent(path.basename(run.target))}`;
  await page.evaluate((spec) => window.llgoHarness.run(spec),
    { kind: run.kind, module, args: run.args, env: programEnvironment });
  return new Promise(() => {});
}

// A page of its own: wait for <body data-exit-status>, print the page's visible text.
async function runPage(page) {
  await page.goto(`${server.url}/index.html`);
  const handle = await page.waitForFunction(() => document.body?.dataset.exitStatus, null, { timeout: 0 });
  const status = Number(await handle.jsonValue());
  process.stdout.write(await page.evaluate(() => document.body.innerText + '\n'));
  return [status, null];
}

if (!finished) {
  const { page, context } = browser;
  let end;
  const ended = new Promise((resolve) => { end = resolve; });
  page.on('console', (message) => process.stderr.write(`browser: console.${message.type()}: ${message.text()}\n`));
  page.on('pageerror', (error) => end([EXIT_TRAP, `uncaught error in the page: ${error.stack ?? error}`]));
  page.on('crash', () => end([EXIT_BROWSER, 'the page crashed']));
  context.on('close', () => end([EXIT_BROWSER, 'the browser exited']));
  let outcome;
  try {
    await page.exposeFunction('__llgoWrite', (fd, text) => (fd === 2 ? process.stderr : process.stdout).write(text));
    await page.exposeFunction('__llgoExit', (status) => end([status, null]));
    outcome = await Promise.race([ended, run.kind === 'page' ? runPage(page) : runInHarness(page)]);
  } catch (error) {
    outcome = [EXIT_BROWSER, `the page failed: ${error.message}`];
  }
  await finish(...outcome);
}
