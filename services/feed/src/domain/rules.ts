import { GUID_PATTERN, POLL_LIMIT_DEFAULT, POLL_LIMIT_MAX } from '@od/contracts';

/** Polling `limit` as the service sees it (the gateway validated it already); undefined = default. */
export function pollLimit(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return POLL_LIMIT_DEFAULT;
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > POLL_LIMIT_MAX) return undefined;
  return n;
}

/**
 * A polling page split by event type: the envelopes whose type is in `keep` (in order), and the ids
 * of the others (acknowledged for the caller, never shown to it).
 */
export function splitPage(
  page: { eventId: string; eventType: string }[],
  keep: ReadonlySet<string>,
): { kept: unknown[]; left: string[] } {
  const kept: unknown[] = [];
  const left: string[] = [];
  for (const e of page) {
    if (keep.has(e.eventType)) kept.push(e);
    else left.push(e.eventId);
  }
  return { kept, left };
}

/** Distinct lower-case event ids of an acknowledgment body; null when the body is not valid. */
export function ackIds(body: unknown): string[] | null {
  if (!Array.isArray(body)) return null;
  const out = new Set<string>();
  for (const e of body) {
    const id = (e as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !GUID_PATTERN.test(id)) return null;
    out.add(id.toLowerCase());
  }
  return [...out];
}
