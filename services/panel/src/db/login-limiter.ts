import type { Redis } from 'ioredis';

/**
 * Sign-in limits, counted in Redis (shared by every panel replica), fixed 15-minute windows:
 * failed attempts per account (5), and every attempt per client IP (30). A successful sign-in
 * clears the account's counter.
 */
export const SIGN_IN_LIMITS = { perAccount: 5, perIp: 30, windowSeconds: 15 * 60 };

export class LoginLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly key: (k: string) => string,
    private readonly limits = SIGN_IN_LIMITS,
  ) {}

  private accountKey = (email: string) => this.key(`panel:signin:account:${email}`);
  private ipKey = (ip: string) => this.key(`panel:signin:ip:${ip}`);

  /** Counts this attempt against the IP; returns seconds to wait when the IP or account is over its limit, else 0. */
  async admit(email: string, ip: string): Promise<number> {
    const ipKey = this.ipKey(ip);
    const [[, ipCount], , [, account]] = (await this.redis
      .multi()
      .incr(ipKey)
      .expire(ipKey, this.limits.windowSeconds, 'NX')
      .get(this.accountKey(email))
      .exec()) as [unknown, unknown][];
    const over =
      Number(ipCount) > this.limits.perIp
        ? ipKey
        : Number(account ?? 0) >= this.limits.perAccount
          ? this.accountKey(email)
          : null;
    if (!over) return 0;
    const ttl = await this.redis.ttl(over);
    return ttl > 0 ? ttl : this.limits.windowSeconds;
  }

  async failed(email: string): Promise<void> {
    const k = this.accountKey(email);
    await this.redis.multi().incr(k).expire(k, this.limits.windowSeconds, 'NX').exec();
  }

  async succeeded(email: string): Promise<void> {
    await this.redis.del(this.accountKey(email));
  }
}
