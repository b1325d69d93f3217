// run-emscripten-esm.mjs MODULE.mjs [ARGS...]
//
// Loads an Emscripten ES-module build (`-o x.mjs`, EXPORT_ES6 + MODULARIZE) the way a web or Node
// application does, with `import`, and runs its main with ARGS and this process's environment.
// The exit status of the program (main's return value or exit()) becomes this process's.
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [modulePath, ...args] = process.argv.slice(2);
if (!modulePath) {
  console.error('usage: run-emscripten-esm.mjs MODULE.mjs [ARGS...]');
  process.exit(64);
}
const { default: createModule } = await import(pathToFileURL(path.resolve(modulePath)).href);
if (typeof createModule !== 'function') {
  console.error(`${modulePath}: no default export; build it with -o NAME.mjs (EXPORT_ES6, MODULARIZE)`);
  process.exit(64);
}
try {
  await createModule({
    arguments: args,
    // ENV is filled from process.env by Emscripten's Node support; nothing to add here.
  });
} catch (e) {
  // Emscripten ends a program by throwing ExitStatus after recording process.exitCode.
  if (e && e.name === 'ExitStatus') {
    process.exitCode = e.status;
  } else {
    throw e;
  }
}
