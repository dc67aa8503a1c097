import type { Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { print } from '../io.js';

/** A fixed default port, so a bookmarked or shared loopback link keeps working across restarts. */
export const DEFAULT_UI_PORT = 7420;

interface UiOptions {
  port: string;
  open: boolean;
  host?: string | boolean;
}

function hasDesktop(): boolean {
  return process.platform === 'darwin' || process.platform === 'win32' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

export function register(program: Command): void {
  program
    .command('ui')
    .description('serve Meshwork Studio (the toolkit in the browser) on 127.0.0.1 and open it')
    .option('--port <n>', `TCP port (0: any free port)`, String(DEFAULT_UI_PORT))
    .option('--no-open', 'do not open a browser')
    .option('--host [address]', 'listen on another address (alone: 0.0.0.0, every interface)')
    .action(async (opts: UiOptions) => {
      const port = Number(opts.port);
      if (!/^\d+$/.test(opts.port) || port > 65535) throw new InputError('port', opts.port, 'an integer from 0 to 65535');
      const host = opts.host === undefined || opts.host === false ? '127.0.0.1' : opts.host === true ? '0.0.0.0' : opts.host;
      const { serveUi } = await import('../../node/ui-server.js');
      const ui = await serveUi({ port, host });
      // Warned once the address is bound: a host that is not this machine's is refused alone (one line).
      if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
        process.stderr.write(`meshwork: warning: serving on ${host}: anyone who can reach this machine can load the app\n`);
      }
      print(`Meshwork Studio: ${ui.url}  (Ctrl-C stops it)`);
      if (opts.open && hasDesktop()) {
        const { default: open } = await import('open');
        await open(ui.url).catch(() => print('(could not open a browser: open the URL above)'));
      }
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await ui.close();
    });
}
