import { describe, expect, it } from 'vitest';
import { describeNetworkError, refusedHost } from './network-error.ts';

describe('attempt log error text', () => {
  it('shows a fixed text and the host, never an address', () => {
    expect(describeNetworkError('ECONNREFUSED', 'hooks.example.com')).toBe(
      'ECONNREFUSED: connection refused (hooks.example.com)',
    );
    expect(describeNetworkError('CERT_HAS_EXPIRED', 'a.example')).toBe('CERT_HAS_EXPIRED (a.example)');
    expect(describeNetworkError(undefined, 'a.example')).toBe('network error (a.example)');
    expect(describeNetworkError('connect 10.0.0.5:443', 'a.example')).toBe('network error (a.example)');
    expect(refusedHost('internal.svc')).toBe('host internal.svc refused (no public address)');
  });

  it('any destination that cannot be resolved or is not public reads the same: no map of internal names', () => {
    const texts = new Set(
      ['EADDRREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'ESERVFAIL', 'ETIMEOUT', 'EREFUSED'].map((c) =>
        describeNetworkError(c, 'db.internal'),
      ),
    );
    expect([...texts]).toEqual([refusedHost('db.internal')]);
  });
});
