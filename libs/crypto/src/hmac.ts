import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `value` under `key`, base64url. */
export const hmacSha256 = (key: string | Buffer, value: string): string =>
  createHmac('sha256', key).update(value, 'utf8').digest('base64url');

/** Constant-time equality of two strings (false when lengths differ, without an early exit on content). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
