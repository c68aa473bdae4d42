import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: session cookies, CSRF tokens, setup tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a bearer-like token: its SHA-256 (hex). */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
