import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from './lazy-logger.ts';

describe('request logger made on first use', () => {
  it('makes no pino child for a request that logs nothing enabled, and logs with the request id otherwise', () => {
    const lines: Record<string, unknown>[] = [];
    const parent = pino({ level: 'warn' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const child = vi.spyOn(parent, 'child');
    const log = lazyChildLogger(parent, { reqId: 'r-1' });
    log.info('not written');
    log.debug({ a: 1 }, 'not written');
    expect(child).not.toHaveBeenCalled();
    log.warn({ route: '/x' }, 'written');
    log.error('again');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.msg, l.route])).toEqual([
      ['r-1', 'written', '/x'],
      ['r-1', 'again', undefined],
    ]);
    expect(log.level).toBe('warn');
  });
});
