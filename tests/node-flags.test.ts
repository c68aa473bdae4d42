import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS, PROCESS_ENV, ROOT } from '../scripts/services.ts';

/** The image runs a service as `pnpm start` and the benchmarks do (scripts/services.ts). */
describe('node flags of a service process', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  it('the image command carries NODE_FLAGS', () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? 'null') as string[] | null;
    expect(cmd).toEqual(['node', ...NODE_FLAGS, 'dist/start.mjs']);
  });
  it('the image environment carries PROCESS_ENV', () => {
    const env = Object.fromEntries(
      [...runtime.matchAll(/^ENV (.*)$/gm)].flatMap((m) => m[1].split(/\s+/).map((kv) => kv.split('='))),
    );
    for (const [k, v] of Object.entries(PROCESS_ENV)) expect(env[k], k).toBe(v);
  });
});
