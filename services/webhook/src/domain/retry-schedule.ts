/**
 * THE webhook retry schedule, one list: entry i is the wait before attempt i + 1, counted from the
 * failure of attempt i (the first attempt goes at once). Its length is the attempts of a round.
 * Multiplied by WEBHOOK_RETRY_SCALE (tests shrink it).
 */
export const RETRY_SCHEDULE_MS = [0, 5_000, 10_000, 20_000] as const;

export const ATTEMPTS_PER_ROUND = RETRY_SCHEDULE_MS.length;

/** Wait before the next attempt after `attemptsDone` failed attempts of a round; null = none left. */
export function retryDelayMs(attemptsDone: number, scale: number): number | null {
  const base = RETRY_SCHEDULE_MS[attemptsDone];
  if (attemptsDone < 1 || base === undefined) return null;
  return Math.max(1, Math.round(base * scale));
}
