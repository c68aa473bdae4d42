import type { Redis } from 'ioredis';

/**
 * Rate limits of SPEC's Limits table, exact across gateway replicas (Redis).
 * PLACEHOLDER: always allows; issue 6 replaces the implementation, not the interface.
 */
export interface LimitDecision {
  allowed: boolean;
  /** headers to add to the response (IETF RateLimit-Policy / RateLimit) */
  headers: Record<string, string>;
}

export interface Limiter {
  /** 600 authenticated calls per minute per credential */
  credential(clientId: string): Promise<LimitDecision>;
  /** 60 token requests per minute per client IP */
  tokenIp(ip: string): Promise<LimitDecision>;
  /** called on a failed authentication (401 invalid_client) at the token endpoint; 10 per minute */
  authFailure(clientId: string): Promise<LimitDecision>;
}

export function createLimiter(_redis: Redis, _prefix: string, _enabled: boolean): Limiter {
  const allow = async (): Promise<LimitDecision> => ({ allowed: true, headers: {} });
  return { credential: allow, tokenIp: allow, authFailure: allow };
}
