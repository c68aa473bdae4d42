import { canReach } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import {
  clearedCookie,
  needsTouch,
  readCookie,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  sessionAlive,
  sessionCookie,
} from './session.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('sessions', () => {
  it('end after the idle time or at the absolute expiry, whichever comes first', () => {
    const s = { lastSeenAt: at(0), expiresAt: at(SESSION_ABSOLUTE_MS) };
    expect(sessionAlive(s, at(SESSION_IDLE_MS - 1))).toBe(true);
    expect(sessionAlive(s, at(SESSION_IDLE_MS))).toBe(false);
    const active = { lastSeenAt: at(SESSION_ABSOLUTE_MS - 1000), expiresAt: at(SESSION_ABSOLUTE_MS) };
    expect(sessionAlive(active, at(SESSION_ABSOLUTE_MS - 1))).toBe(true);
    expect(sessionAlive(active, at(SESSION_ABSOLUTE_MS))).toBe(false);
  });

  it('last use is written at most once a minute', () => {
    const s = { lastSeenAt: at(0), expiresAt: at(SESSION_ABSOLUTE_MS) };
    expect(needsTouch(s, at(59_999))).toBe(false);
    expect(needsTouch(s, at(60_000))).toBe(true);
  });

  it('the cookie is __Host- prefixed: Secure, Path=/, no Domain; HttpOnly, SameSite=Lax', () => {
    expect(sessionCookie('abc', 60)).toBe(
      '__Host-od_panel=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure',
    );
    expect(clearedCookie()).toMatch(/^__Host-od_panel=; .*Max-Age=0; Secure$/);
    expect(clearedCookie()).not.toMatch(/Domain/i);
  });

  it('reads its cookie among others; an unprefixed od_panel is not it', () => {
    expect(readCookie('a=1; __Host-od_panel=xyz; b=2')).toBe('xyz');
    expect(readCookie('od_panel=xyz')).toBeUndefined();
    expect(readCookie('__Host-od_panelx=1')).toBeUndefined();
    expect(readCookie('__Host-od_panel=')).toBeUndefined();
    expect(readCookie(undefined)).toBeUndefined();
  });
});

describe('roles', () => {
  it('STAFF reaches orders, menu and the store view; never credentials or settings', () => {
    expect(['orders', 'menu', 'store'].every((a) => canReach('STAFF', a as never))).toBe(true);
    expect(canReach('STAFF', 'credentials')).toBe(false);
    expect(canReach('STAFF', 'settings')).toBe(false);
    expect(canReach('OWNER', 'credentials')).toBe(true);
  });
});
