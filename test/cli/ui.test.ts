/**
 * `meshwork ui`: serves the built app on 127.0.0.1 (never every interface unless --host says so,
 * with a warning), prints the URL, and refuses bad options in one line.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Starts `meshwork ui` with args, waits for its URL line, and returns it with stderr so far and a stop function. */
async function startUi(args: string[]): Promise<{ url: string; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [MAIN, 'ui', '--no-open', ...args], { env: { ...process.env, DISPLAY: '' } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /http:\/\/\S+\//.exec(stdout);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`meshwork ui exited ${code}: ${stderr}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code));
      child.kill('SIGINT');
    });
  return { url, stderr: () => stderr, stop };
}

describe('meshwork ui', () => {
  it('serves the built app on 127.0.0.1 and stops cleanly on SIGINT', async () => {
    const ui = await startUi(['--port', '0']);
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(ui.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Meshwork Studio</title>');
    // Every asset the page names is served.
    for (const [, src] of html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)) expect((await fetch(ui.url + src)).status).toBe(200);
    expect(ui.stderr()).toBe('');
    expect(await ui.stop()).toBe(0);
  });

  it('warns when --host opens it to other machines', async () => {
    const ui = await startUi(['--port', '0', '--host']);
    expect((await fetch(ui.url)).status).toBe(200);
    await ui.stop();
    expect(ui.stderr()).toBe('meshwork: warning: serving on 0.0.0.0: anyone who can reach this machine can load the app\n');
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('refuses a bad or busy port in one line', async () => {
    expect(expectOneLineError(runCli(['ui', '--no-open', '--port', 'x']))).toBe('meshwork: error: port: got "x"; accepted: an integer from 0 to 65535');
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = runCli(['ui', '--no-open', '--port', String(port)]);
      expect(expectOneLineError(r)).toBe(`meshwork: error: port: got ${port}; accepted: a free port (${port} is in use; --port 0 picks one)`);
    } finally {
      busy.close();
    }
  });

  it('refuses a --host that is no address of this machine in one line (the exposure warning came first, two lines)', () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never assigned to a machine, so binding it fails.
    expect(expectOneLineError(runCli(['ui', '--no-open', '--port', '0', '--host', '192.0.2.1']))).toBe('meshwork: error: host: got "192.0.2.1"; accepted: an address of this machine');
  });
});
