// static-server.mjs: a small read-only HTTP server on a loopback port, for pages the browser
// tests (and people) open. It maps URL prefixes to folders and serves files with the MIME types
// a page needs for ES modules and WebAssembly (text/javascript, application/wasm: browsers
// refuse a module script or compileStreaming() under any other type).
//
//   import { startStaticServer } from './static-server.mjs';
//   const server = await startStaticServer({ '/': dir, '/vendor/': other });  // 127.0.0.1:<free port>
//   server.url; await server.close();
//
// Run on its own it serves one folder until interrupted (how examples/browser is opened):
//   node tests/browser/static-server.mjs DIR [PORT]
//
// Limits: GET and HEAD only; no directory listings; a path that leaves its folder (.., symlinks
// out of it) is a 404. Binds 127.0.0.1 only: nothing off this machine can reach it.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

// The file a URL path names under one of the mounts, or null. Longest prefix wins.
async function resolveFile(mounts, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  for (const prefix of prefixes) {
    if (!decoded.startsWith(prefix)) continue;
    const root = await realpath(mounts[prefix]);
    let relative = decoded.slice(prefix.length);
    if (relative === '' || relative.endsWith('/')) relative += 'index.html';
    try {
      const file = await realpath(path.join(root, relative));
      if (file !== root && !file.startsWith(root + path.sep)) return null;
      if ((await stat(file)).isFile()) return file;
    } catch {
      // missing: try a shorter prefix
    }
  }
  return null;
}

export async function startStaticServer(mounts, { port = 0, log = null } = {}) {
  const server = createServer(async (request, response) => {
    const urlPath = new URL(request.url, 'http://localhost').pathname;
    const file = request.method === 'GET' || request.method === 'HEAD' ? await resolveFile(mounts, urlPath) : null;
    log?.(`${request.method} ${urlPath} -> ${file ?? 404}`);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${urlPath}\n`);
      return;
    }
    response.writeHead(200, {
      'content-type': MIME_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).on('error', () => response.destroy()).pipe(response);
  });
  // Keep-alive connections would hold close() open; a test server ends them with itself.
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: actualPort } = server.address();
  return {
    url: `http://127.0.0.1:${actualPort}`,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, port = '8000'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node static-server.mjs DIR [PORT]');
    process.exit(2);
  }
  const server = await startStaticServer({ '/': dir }, { port: Number(port) });
  console.log(`serving ${path.resolve(dir)} at ${server.url}/ (Ctrl-C stops)`);
}
