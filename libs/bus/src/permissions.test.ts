import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEPLOY_CONF,
  deployConfig,
  K8S_AUTHORIZATION,
  k8sAuthorization,
} from '../../../scripts/nats-config.ts';
import { BUS_IDENTITIES, busPermissions, natsServerConfig } from './permissions.ts';

describe('bus permissions', () => {
  const p = busPermissions('od');

  it('deploy/nats/nats.conf and deploy/k8s/nats/authorization.conf are generated from them (run `pnpm nats-config` after a change)', () => {
    expect(readFileSync(DEPLOY_CONF, 'utf8')).toBe(deployConfig('od'));
    expect(readFileSync(K8S_AUTHORIZATION, 'utf8')).toBe(k8sAuthorization('od'));
  });

  it('only orders publishes order events; only auth writes credentials; only webhook asks for webhook secrets', () => {
    const who = (subject: string) => BUS_IDENTITIES.filter((id) => p[id].publish.allow.includes(subject));
    expect(who('od.events.order.>')).toEqual(['orders']);
    expect(who('$KV.od_credentials.>')).toEqual(['auth']);
    expect(who('od.rpc.auth.internal.webhookSecrets')).toEqual(['webhook']);
    expect(who('od.rpc.auth.internal.clientSecret')).toEqual(['webhook']);
    expect(p.gateway.publish.deny).toEqual(['od.rpc.*.internal.>']);
  });

  it('only feed announces new pollable entries; the gateways listen', () => {
    const pubs = BUS_IDENTITIES.filter((id) => p[id].publish.allow.includes('od.internal.feed.pending'));
    const subs = BUS_IDENTITIES.filter((id) => p[id].subscribe.allow.includes('od.internal.feed.pending'));
    expect(pubs).toEqual(['feed']);
    expect(subs).toEqual(['gateway']);
  });

  it('each identity subscribes to its own inbox only, never to a wildcard of everything', () => {
    for (const id of BUS_IDENTITIES) {
      expect(p[id].subscribe.allow).toContain(`_INBOX.${id}.>`);
      for (const s of [...p[id].subscribe.allow, ...p[id].publish.allow])
        expect(s).not.toMatch(/^(>|_INBOX\.>|\$JS\.API\.>)$/);
    }
  });

  it('renders passwords as environment references or quoted literals', () => {
    const text = natsServerConfig({
      prefix: 'od',
      listen: '127.0.0.1:4223',
      storeDir: '/tmp/x',
      passwords: {
        auth: '$PW_AUTH',
        catalog: 'a"b',
        orders: 'x',
        feed: 'x',
        webhook: 'x',
        panel: 'x',
        gateway: 'x',
      },
    });
    expect(text).toContain('password: $PW_AUTH');
    expect(text).toContain('password: "a\\"b"');
    expect(text).not.toContain('no_auth_user');
  });
});
