/** One rate-limit policy: a sliding window of `limit` requests per `windowSeconds`. */
export interface Policy {
  /** name used in the RateLimit headers and in the Redis key */
  name: string;
  /** requests allowed in any window */
  limit: number;
  windowSeconds: number;
}
