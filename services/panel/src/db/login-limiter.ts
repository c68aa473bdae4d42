import type { Redis } from 'ioredis';
import { ipBucket } from '../domain/ip-bucket.ts';

/**
 * Sign-in and password-setup limits, counted in Redis (shared by every panel replica) and BEFORE
 * any password is hashed, in one atomic script: a concurrent burst gets no more guesses than the
 * limits, whatever the number of parallel requests.
 *
 * - per client network (`ipBucket`: the IPv4 address, or the IPv6 /64): `perIp` attempts per window;
 * - per account + client network: `freeAttempts` in a row, then a growing delay between attempts
 *   (1 s, 2 s, 4 s … capped at `maxDelaySeconds`), cleared by a success. An attacker slows down
 *   only its own network's attempts at an account: the owner signing in from its own network is
 *   never locked out by someone else's failures;
 * - per account from networks it never signed in from: `perAccountUnknown` attempts per window (a
 *   guess spread over many networks); networks of a past success (kept `knownDays`) are exempt.
 */
export const SIGN_IN_LIMITS = {
  perIp: 30,
  freeAttempts: 3,
  maxDelaySeconds: 15 * 60,
  perAccountUnknown: 100,
  windowSeconds: 15 * 60,
  knownDays: 30,
  /** password setups (invite links) per client network and window */
  setupPerIp: 30,
};
export type SignInLimits = typeof SIGN_IN_LIMITS;

// KEYS: ip, pair (account+network), account (attempts from unknown networks), known (networks of a success)
// ARGV: network, window s, perIp, freeAttempts, maxDelay ms, perAccountUnknown
// -> { 0 } admitted, or { ms to wait }
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local ip = redis.call('INCR', KEYS[1])
if ip == 1 then redis.call('EXPIRE', KEYS[1], window) end
if ip > tonumber(ARGV[3]) then return { math.max(redis.call('PTTL', KEYS[1]), 1000) } end
local known = redis.call('SISMEMBER', KEYS[4], ARGV[1]) == 1
if not known and tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[6]) then
  return { math.max(redis.call('PTTL', KEYS[3]), 1000) }
end
local untilMs = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
if untilMs > now then return { untilMs - now } end
local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
local free = tonumber(ARGV[4])
local delay = 0
if n > free then delay = math.min(1000 * 2 ^ (n - free - 1), tonumber(ARGV[5])) end
redis.call('HSET', KEYS[2], 'until', now + delay)
redis.call('PEXPIRE', KEYS[2], window * 1000 + delay)
if not known then
  local a = redis.call('INCR', KEYS[3])
  if a == 1 then redis.call('EXPIRE', KEYS[3], window) end
end
return { 0 }`;

// KEYS: ip -> { 0 } or { ms to wait }; ARGV: window s, limit
const COUNT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
if n > tonumber(ARGV[2]) then return { math.max(redis.call('PTTL', KEYS[1]), 1000) } end
return { 0 }`;

const seconds = (ms: number) => (ms > 0 ? Math.ceil(ms / 1000) : 0);

export class LoginLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly key: (k: string) => string,
    private readonly limits: SignInLimits = SIGN_IN_LIMITS,
  ) {}

  private keys(email: string, network: string) {
    return {
      ip: this.key(`panel:signin:ip:${network}`),
      pair: this.key(`panel:signin:pair:${email}:${network}`),
      account: this.key(`panel:signin:account:${email}`),
      known: this.key(`panel:signin:known:${email}`),
    };
  }

  /**
   * Counts this sign-in attempt (before any hashing). 0 = go on; otherwise the seconds to wait
   * (the attempt is refused and not counted against the account).
   */
  async admit(email: string, ip: string): Promise<number> {
    const network = ipBucket(ip);
    const k = this.keys(email, network);
    const l = this.limits;
    const [ms] = (await this.redis.eval(
      ADMIT,
      4,
      k.ip,
      k.pair,
      k.account,
      k.known,
      network,
      l.windowSeconds,
      l.perIp,
      l.freeAttempts,
      l.maxDelaySeconds * 1000,
      l.perAccountUnknown,
    )) as [number];
    return seconds(ms);
  }

  /** A success: the account's delay from this network ends, and the network is known for `knownDays`. */
  async succeeded(email: string, ip: string): Promise<void> {
    const network = ipBucket(ip);
    const k = this.keys(email, network);
    await this.redis
      .multi()
      .del(k.pair)
      .sadd(k.known, network)
      .expire(k.known, this.limits.knownDays * 86_400)
      .exec();
  }

  /** Counts a password setup from this client network (before the token is looked up); seconds to wait or 0. */
  async admitSetup(ip: string): Promise<number> {
    const key = this.key(`panel:setup:ip:${ipBucket(ip)}`);
    const [ms] = (await this.redis.eval(
      COUNT,
      1,
      key,
      this.limits.windowSeconds,
      this.limits.setupPerIp,
    )) as [number];
    return seconds(ms);
  }
}
