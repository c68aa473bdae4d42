/**
 * Session rules. A session ends after IDLE_MS without a request or ABSOLUTE_MS after sign-in,
 * whichever comes first; every sign-in creates a new session id (no fixation).
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** `lastSeenAt` is written at most this often (one UPDATE per minute per session, not per request). */
const TOUCH_EVERY_MS = 60 * 1000;
/**
 * `__Host-`: the browser accepts it only with Secure, Path=/ and no Domain, so no sibling host or
 * plain-http page can plant or shadow it. Browsers treat http://localhost and 127.0.0.1 as secure
 * (Chromium 156 checked: the cookie is set and sent back over plain http there), so development
 * works without TLS on the loopback only.
 */
const COOKIE_NAME = '__Host-od_panel';

export interface SessionTimes {
  lastSeenAt: Date;
  expiresAt: Date;
}

export function sessionAlive(s: SessionTimes, now: Date, idleMs = SESSION_IDLE_MS): boolean {
  return now < s.expiresAt && now.getTime() - s.lastSeenAt.getTime() < idleMs;
}

export const needsTouch = (s: SessionTimes, now: Date): boolean =>
  now.getTime() - s.lastSeenAt.getTime() >= TOUCH_EVERY_MS;

/** Set-Cookie for a session: `__Host-` prefixed, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain. */
export function sessionCookie(value: string, maxAgeSeconds: number): string {
  return [
    `${COOKIE_NAME}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    'Secure',
  ].join('; ');
}

export const clearedCookie = (): string => sessionCookie('', 0);

/** The session cookie's value in a Cookie header, if any. */
export function readCookie(header: string | undefined, name = COOKIE_NAME): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || undefined;
  }
  return undefined;
}
