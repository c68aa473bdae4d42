import type { OrderChannel } from '@od/contracts';

/**
 * `extraInfo` of the public Order: the channel and origin markers, then the notes (SPEC: "notes
 * joined with origin and channel markers"). Format (README "extraInfo"):
 *
 *   [Canal: <CHANNEL>] [Origem: <origin>] <notes>
 *
 * Both markers are always present and always first, so an integrator parses them with one regular
 * expression (`EXTRA_INFO_PATTERN`) whatever the notes hold; the notes part (after one space) is
 * omitted when there are none. `<CHANNEL>` is the intake channel (DIGITAL_MENU, APP, TABLE,
 * MARKETPLACE); `<origin>` is the intake's `origin` (e.g. the marketplace's name; no `[`, `]` or line
 * breaks) or, when absent, the channel's pt-BR label.
 */
const CHANNEL_LABELS: Record<OrderChannel, string> = {
  DIGITAL_MENU: 'Cardápio digital',
  APP: 'Aplicativo',
  TABLE: 'Mesa',
  MARKETPLACE: 'Marketplace',
};

export const EXTRA_INFO_PATTERN = /^\[Canal: ([A-Z_]+)\] \[Origem: ([^[\]\r\n]+)\](?: ([\s\S]*))?$/;

export interface ExtraInfoParts {
  channel: OrderChannel;
  origin: string;
  notes: string | null;
}

export function renderExtraInfo(p: { channel: OrderChannel; origin?: string | null; notes?: string | null }) {
  const origin = p.origin?.trim() || CHANNEL_LABELS[p.channel];
  const head = `[Canal: ${p.channel}] [Origem: ${origin}]`;
  return p.notes ? `${head} ${p.notes}` : head;
}

/** The parts of a rendered extraInfo; an order stored before the format existed holds notes only. */
export function parseExtraInfo(extraInfo: string | null, channel: OrderChannel): ExtraInfoParts {
  const m = extraInfo === null ? null : EXTRA_INFO_PATTERN.exec(extraInfo);
  if (!m || m[1] !== channel) return { channel, origin: CHANNEL_LABELS[channel], notes: extraInfo };
  return { channel, origin: m[2], notes: m[3] ?? null };
}
