import type { Command } from 'commander';
import { type AdminClient, adminClient } from './client.ts';

/** Where odctl writes: stdout gets JSON results, stderr gets JSON errors. Tests capture both. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
};

export const DEFAULT_ADMIN_URL = 'http://localhost:8081';
const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

/** What every command group receives: the admin client (built from the global options) and printing. */
export interface Ctx {
  io: Io;
  client(): AdminClient;
  print(value: unknown): void;
  /** the public base URL used in printed curl lines */
  publicUrl(explicit?: string): string;
}

export function makeCtx(program: Command, io: Io): Ctx {
  return {
    io,
    client() {
      const o = program.opts<{ url?: string; token?: string }>();
      const url = o.url ?? io.env.ODCTL_ADMIN_URL ?? DEFAULT_ADMIN_URL;
      const token = o.token ?? io.env.ADMIN_TOKEN ?? 'dev-admin-token';
      return adminClient({ url, token });
    },
    print(value) {
      io.out(`${JSON.stringify(value ?? null, null, 2)}\n`);
    },
    publicUrl(explicit) {
      return (explicit ?? io.env.ODCTL_PUBLIC_URL ?? io.env.PUBLIC_BASE_URL ?? DEFAULT_PUBLIC_URL).replace(
        /\/+$/,
        '',
      );
    },
  };
}

/** Parses a `--json` option value; a usage error when it is not a JSON object. */
export function parseJsonObject(text: string | undefined, what = '--json'): Record<string, unknown> {
  if (text === undefined) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} is not valid JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

export const enc = encodeURIComponent;

/** A mistake in the command line (printed as `{ error: "usage", message }`, exit code 1). */
export class UsageError extends Error {}

/** `<name> <id> --json <object>`: PATCH `path(id)` with the object's fields, printing the answer. */
export function patchCommand(
  parent: Command,
  ctx: Ctx,
  o: { name: string; description: string; fields: string; path: (id: string) => string },
): void {
  parent
    .command(o.name)
    .description(o.description)
    .requiredOption('--json <object>', o.fields)
    .action(async (id: string, opts: { json: string }) =>
      ctx.print(await ctx.client().request('PATCH', o.path(id), parseJsonObject(opts.json))),
    );
}
