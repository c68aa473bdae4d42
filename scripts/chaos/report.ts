import type { Verdict } from './verify.ts';

function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const width = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  return [line(head), width.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The summary printed at the end of a run. */
export function summary(v: Verdict, minutes: number): string {
  const out: string[] = [];
  out.push(
    `chaos: ${minutes} min, ${v.orders.driven} orders (${v.orders.completed} driven to their end), ` +
      `${v.actions.total} actions (${v.actions.retried} retried, ${v.actions.replayed} replayed)`,
  );
  out.push('');
  out.push(
    table(
      ['credential', 'orders', 'expected', 'received', 'lost', 'dup', 'out-of-order'],
      v.credentials.map((c) => [
        c.clientId,
        c.orders,
        c.expected,
        c.received,
        c.lost,
        c.duplicates,
        c.outOfOrder,
      ]),
    ),
  );
  out.push('');
  out.push(
    table(
      ['fault', 'count', 'outage max', 'recovery p50', 'recovery max', '5xx/net'],
      v.faults.map((f) => [
        f.kind,
        f.count,
        s(f.outageMsMax),
        s(f.recoveryMsP50),
        s(f.recoveryMsMax),
        f.errors,
      ]),
    ),
  );
  out.push('');
  out.push(
    `events: ${v.totals.expected} expected, ${v.totals.received} received, ${v.totals.lost} lost, ` +
      `${v.totals.duplicates} duplicate deliveries, ${v.totals.outOfOrder} out of order; ` +
      `executed twice: ${v.doubleExecuted}; wrong final state: ${v.wrongFinalState}`,
  );
  out.push(`5xx/network errors: ${v.errors.inside} inside fault windows, ${v.errors.outside} outside`);
  for (const g of v.knownGaps) out.push(`known gap: ${g}`);
  for (const r of v.reordered) out.push(`out of order (allowed): ${r}`);
  if (v.violations.length) {
    out.push(`FAILED (${v.violations.length}):`);
    for (const x of v.violations.slice(0, 30)) out.push(`  - ${x}`);
  } else out.push('OK: nothing lost, nothing executed twice');
  return out.join('\n');
}
