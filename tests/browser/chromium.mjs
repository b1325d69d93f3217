// chromium.mjs: starts Debian's headless Chromium through npm's playwright-core with a fresh
// profile, and takes both away again on every way out; or, inside a ctest run that started one
// for all its browser cases (shared-chromium.mjs, LLGO_WASM_SHARED_CHROMIUM), opens a fresh
// context in that one.
//
//   const browser = await launchChromium({ executablePath, nodeModules });
//   browser.page ...; await browser.close();
//
// Never a downloaded browser: playwright-core is only the driver; executablePath is the system's
// Chromium (Debian's `chromium`, /usr/bin/chromium). The flags keep it off the network (there is
// none here; without them it tries to reach Google's hosts) and out of the GPU and the sandbox.
//
// Everything a run leaves on disk goes into one new folder in the temporary directory,
// llgo-wasm-chromium-<pid>-XXXXXX: the profile (profile/) and, since TMPDIR points there from the
// launch on, playwright-core's artifacts and Chromium's temporary files. close() removes it, so
// does this process's exit (playwright-core kills the browser's process group on exit first), and
// if this process was killed outright, the next launch removes the folders of processes that no
// longer exist. Chromium itself ends when the process that drives it dies: its DevTools pipe closes.
import { accessSync, constants, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic',
];
const FOLDER_PREFIX = 'llgo-wasm-chromium-';

export function processExists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

// Folders left by runners that were killed (SIGKILL skips every cleanup of ours).
function removeStaleFolders(tmp) {
  for (const name of readdirSync(tmp)) {
    const match = name.startsWith(FOLDER_PREFIX) && /^(\d+)-/.exec(name.slice(FOLDER_PREFIX.length));
    if (match && Number(match[1]) !== process.pid && !processExists(Number(match[1]))) {
      rmSync(path.join(tmp, name), { recursive: true, force: true, maxRetries: 3 });
    }
  }
}

export class BrowserStartError extends Error {}

// The browser of the whole ctest run (shared-chromium.mjs), when LLGO_WASM_SHARED_CHROMIUM names
// its state file and it is alive: a new context in it, closed again by close(); null otherwise.
async function connectToSharedChromium(playwright) {
  const file = process.env.LLGO_WASM_SHARED_CHROMIUM;
  if (!file) return null;
  let state;
  try {
    state = JSON.parse(readFileSync(file, 'utf8'));
    process.kill(state.pid, 0);
  } catch {
    return null;   // not started (a case run outside ctest) or gone: start a browser of our own
  }
  let browser;
  try {
    browser = await playwright.chromium.connectOverCDP(state.wsEndpoint, { timeout: 30000 });
  } catch {
    return null;
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  // Over CDP, closing the browser disconnects from it: the browser stays for the next case.
  return session(context, page, null, () => browser.close().catch(() => {}));
}

// What a caller gets: the context, its page, and close(), which closes the context (at most once)
// and then runs `after` whatever happened. A page stuck in a busy loop must not hold the close:
// past the deadline, exiting the process makes playwright-core kill the browser's process group.
function session(context, page, folder, after) {
  let closed = false;
  return {
    context,
    page,
    folder,
    async close() {
      if (closed) return;
      closed = true;
      const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('close timed out')), 10000).unref());
      try {
        await Promise.race([context.close(), deadline]);
      } finally {
        await after();
      }
    },
  };
}

export async function launchChromium({ executablePath, nodeModules, launchTimeoutMs = 60000 }) {
  let playwright;
  try {
    playwright = await import(pathToFileURL(path.join(nodeModules, 'playwright-core', 'index.mjs')).href);
  } catch (error) {
    throw new BrowserStartError(`cannot load playwright-core from ${nodeModules}: ${error.message} ` +
      '(tools/setup-toolchain.sh installs it into the toolchain\'s npm/node_modules)');
  }
  try {
    accessSync(executablePath, constants.X_OK);
  } catch (error) {
    throw new BrowserStartError(`cannot start ${executablePath}: ${error.code === 'ENOENT' ? 'not found' : error.message} ` +
      '(install Debian\'s chromium: tools/setup-toolchain.sh does; or name another with --chromium / CHROMIUM)');
  }
  const shared = await connectToSharedChromium(playwright);
  if (shared) return shared;
  const tmp = os.tmpdir();
  removeStaleFolders(tmp);
  const folder = mkdtempSync(path.join(tmp, `${FOLDER_PREFIX}${process.pid}-`));
  const removeFolder = () => rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  process.on('exit', removeFolder);
  process.env.TMPDIR = folder;
  let context;
  try {
    context = await playwright.chromium.launchPersistentContext(path.join(folder, 'profile'), {
      executablePath,
      headless: true,
      args: CHROMIUM_FLAGS,
      timeout: launchTimeoutMs,
      // Signals are the caller's to handle (it cleans up more than the browser).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    removeFolder();
    throw new BrowserStartError(`cannot start ${executablePath}: ${error.message}`);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return session(context, page, folder, removeFolder);
}
