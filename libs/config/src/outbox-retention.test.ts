import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './mod.ts';

describe('ORDER_OUTBOX_RETENTION', () => {
  const load = (v?: string) => loadConfig(v === undefined ? {} : { ORDER_OUTBOX_RETENTION: v }, () => {});
  it('is a duration in milliseconds, 24 h by default', () => {
    expect(load().ORDER_OUTBOX_RETENTION).toBe(86_400_000);
    expect(load('36h').ORDER_OUTBOX_RETENTION).toBe(129_600_000);
    expect(load('90m').ORDER_OUTBOX_RETENTION).toBe(5_400_000);
    expect(load('7d').ORDER_OUTBOX_RETENTION).toBe(604_800_000);
  });
  it('refuses anything else at start', () => {
    for (const bad of ['1 day', '24', '-1h', 'h']) expect(() => load(bad), bad).toThrow(ConfigError);
  });
});
