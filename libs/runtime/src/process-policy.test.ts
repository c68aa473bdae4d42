import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FATAL_EXIT_CODE } from './process-policy.ts';

const script = (body: string) => `
import { createLogger } from '@od/logger';
import { installProcessPolicy } from ${JSON.stringify(path.join(import.meta.dirname, 'process-policy.ts'))};
installProcessPolicy(createLogger('policy-test'), 'policy-test');
${body}
setTimeout(() => console.log('still alive'), 200);
`;

function run(body: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(body)], {
    cwd: path.join(import.meta.dirname, '..'),
    encoding: 'utf8',
    timeout: 30_000,
  });
  const fatal = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .filter((l) => l.level === 60);
  return { code: r.status, fatal, stdout: r.stdout };
}

describe('process policy', () => {
  it('an unhandled rejection is logged once at fatal level with its trace id, then exit 70', () => {
    const r = run(`Promise.reject(Object.assign(new Error('boom'), { traceId: 'trace-fatal' }));`);
    expect(r.code).toBe(FATAL_EXIT_CODE);
    expect(r.fatal).toHaveLength(1);
    expect(r.fatal[0]).toMatchObject({ traceId: 'trace-fatal', origin: 'unhandledRejection' });
    expect(r.stdout).not.toContain('still alive');
  });

  it('an uncaught exception: the same', () => {
    const r = run(`setTimeout(() => { throw new Error('bang'); }, 10);`);
    expect(r.code).toBe(FATAL_EXIT_CODE);
    expect(r.fatal).toHaveLength(1);
    expect(r.fatal[0].origin).toBe('uncaughtException');
  });
});
