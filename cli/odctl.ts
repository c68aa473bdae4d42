// odctl: the operator's command line, a thin client of the gateway's Admin API (DESIGN.md "Admin API").
// Results are JSON on stdout; failures are JSON on stderr with exit code 1.
//   pnpm odctl --help        pnpm odctl health        pnpm demo
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { registerCredential } from './commands/credential.ts';
import { registerDemo } from './commands/demo.ts';
import { registerEvents } from './commands/events.ts';
import { registerHealth } from './commands/health.ts';
import { registerKeys } from './commands/keys.ts';
import { registerOrder } from './commands/order.ts';
import { registerSecrets } from './commands/secrets.ts';
import { registerStore } from './commands/store.ts';
import { registerUser } from './commands/user.ts';
import { registerWebhook } from './commands/webhook.ts';
import { AdminError } from './lib/client.ts';
import { DEFAULT_ADMIN_URL, type Io, makeCtx, processIo, UsageError } from './lib/context.ts';

export function buildProgram(io: Io): Command {
  const program = new Command('odctl')
    .description('Admin API client of the Open Delivery platform')
    .option('--url <url>', `Admin API base URL (env ODCTL_ADMIN_URL, default ${DEFAULT_ADMIN_URL})`)
    .option('--token <token>', 'admin token (env ADMIN_TOKEN; the development default otherwise)')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      // commander's own messages (unknown command, missing argument) become JSON below
      writeErr: () => {},
    });
  const ctx = makeCtx(program, io);
  registerHealth(program, ctx);
  registerStore(program, ctx);
  registerCredential(program, ctx);
  registerOrder(program, ctx);
  registerEvents(program, ctx);
  registerWebhook(program, ctx);
  registerUser(program, ctx);
  registerSecrets(program, ctx);
  registerDemo(program, ctx);
  registerKeys(program, ctx);
  // subcommands inherit exitOverride and output routing
  const walk = (c: Command) => {
    for (const sub of c.commands) {
      sub.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: () => {} });
      walk(sub);
    }
  };
  walk(program);
  return program;
}

/** Runs odctl with the given arguments (without `node odctl.ts`); resolves to the exit code. */
export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const program = buildProgram(io);
  const fail = (body: Record<string, unknown>) => {
    io.err(`${JSON.stringify(body)}\n`);
    return 1;
  };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return 0; // --help, --version
      return fail({ error: 'usage', message: e.message.replace(/^error: /, '') });
    }
    if (e instanceof UsageError) return fail({ error: 'usage', message: e.message });
    if (e instanceof AdminError) return fail(e.toJSON());
    return fail({ error: 'internal', message: (e as Error).message ?? String(e) });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await run(process.argv.slice(2));
}
