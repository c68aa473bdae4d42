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

/** Distinct lower-case event ids of an acknowledgment body (ids are GUIDs: the op's schema). */
export function ackIds(body: readonly { id: string }[]): string[] {
  return [...new Set(body.map((e) => e.id.toLowerCase()))];
}
