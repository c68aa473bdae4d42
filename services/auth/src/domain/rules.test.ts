import { describe, expect, it } from 'vitest';
import { applyUpdate, type EditableState, nextStatus } from './rules.ts';

const polling: EditableState = {
  name: 'pdv',
  deliveryMode: 'POLLING',
  webhookUrl: null,
  includeMarketplaceOrders: false,
};

describe('credential rules', () => {
  it('pause, resume and revoke; revocation is permanent', () => {
    expect(nextStatus('ACTIVE', 'pause')).toBe('PAUSED');
    expect(nextStatus('PAUSED', 'pause')).toBe('PAUSED');
    expect(nextStatus('PAUSED', 'resume')).toBe('ACTIVE');
    expect(nextStatus('ACTIVE', 'resume')).toBe('ACTIVE');
    expect(nextStatus('PAUSED', 'revoke')).toBe('REVOKED');
    expect(nextStatus('REVOKED', 'revoke')).toBe('REVOKED');
    expect(nextStatus('REVOKED', 'resume')).toEqual({ kind: 'revoked' });
    expect(nextStatus('REVOKED', 'pause')).toEqual({ kind: 'revoked' });
  });

  it('WEBHOOK and BOTH need a URL', () => {
    expect(applyUpdate('ACTIVE', polling, { deliveryMode: 'WEBHOOK' })).toMatchObject({
      kind: 'invalid',
      field: 'webhookUrl',
    });
    const ok = applyUpdate('ACTIVE', polling, { deliveryMode: 'BOTH', webhookUrl: 'https://x.test/h' });
    expect(ok).toMatchObject({
      next: { deliveryMode: 'BOTH', webhookUrl: 'https://x.test/h' },
      urlSaved: true,
    });
  });

  it('saving the URL (even unchanged) is a save; other edits are not', () => {
    const hook = { ...polling, deliveryMode: 'WEBHOOK' as const, webhookUrl: 'https://x.test/h' };
    expect(applyUpdate('ACTIVE', hook, { webhookUrl: 'https://x.test/h' })).toMatchObject({ urlSaved: true });
    expect(applyUpdate('PAUSED', hook, { name: 'novo' })).toMatchObject({
      urlSaved: false,
      next: { name: 'novo', webhookUrl: 'https://x.test/h' },
    });
  });

  it('removing the URL only when the result is POLLING', () => {
    const hook = { ...polling, deliveryMode: 'BOTH' as const, webhookUrl: 'https://x.test/h' };
    expect(applyUpdate('ACTIVE', hook, { webhookUrl: null })).toMatchObject({ kind: 'invalid' });
    expect(applyUpdate('ACTIVE', hook, { webhookUrl: null, deliveryMode: 'POLLING' })).toMatchObject({
      urlRemoved: true,
      next: { webhookUrl: null },
    });
  });

  it('a revoked credential cannot be edited', () => {
    expect(applyUpdate('REVOKED', polling, { name: 'x' })).toEqual({ kind: 'revoked' });
  });
});
