/**
 * Serves the built Meshwork Studio (dist/web) over HTTP: static files only, the app computes in
 * the browser. Bound to 127.0.0.1 unless the caller names another host.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { InputError } from '../util/errors.js';

/** The built app: next to dist/node in the package, or in dist/ when running from the sources. */
export function webRoot(): string {
  for (const rel of ['../web/', '../../dist/web/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  throw new InputError('ui', 'dist/web', 'a built app (run `npm run build` first)');
}

export interface UiServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export async function serveUi(opts: { port: number; host: string; root?: string }): Promise<UiServer> {
  const serve = sirv(opts.root ?? webRoot(), { etag: true, gzip: false, single: false, dev: false });
  const server = createServer((req, res) => serve(req, res, () => {
    res.statusCode = 404;
    res.end('not found');
  }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new InputError('port', opts.port, `a free port (${opts.port} is in use; --port 0 picks one)`));
      else if (err.code === 'EACCES') reject(new InputError('port', opts.port, 'a port this user may open (1024 or above)'));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') reject(new InputError('host', opts.host, 'an address of this machine'));
      else reject(err);
    });
    server.listen(opts.port, opts.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  return {
    url: `http://${shownHost}:${port}/`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
