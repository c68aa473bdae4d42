import type { RpcReply } from '@od/bus';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Idempotency-Key on actions (SPEC): per credential, 24 h, replay of 202/404/422, 409 on reuse
 * with another request, 400 over 128 characters, concurrent same-key requests execute once.
 * PLACEHOLDER: executes every time; the orders issue replaces the implementation, not the interface.
 */
export interface Idempotency {
  /**
   * Runs `execute` at most once per (credential, key) and returns the reply to send: the recorded
   * one on a replay. `fingerprint` identifies the request (route, action, body).
   * Throws HttpException(400 invalid_idempotency_key / 409 idempotency_key_reuse / 5xx if Redis is down).
   */
  run(request: FastifyRequest, fingerprint: string, execute: () => Promise<RpcReply>): Promise<RpcReply>;
}

export function createIdempotency(_redis: Redis, _prefix: string): Idempotency {
  return { run: (_req, _fp, execute) => execute() };
}
