import type { Situation } from '@od/contracts/browser';
import type { Key } from '../i18n.ts';

/** The board's columns: each situation in one (a test asserts every situation has its column). */
export const COLUMNS: { key: Key; situations: readonly Situation[] }[] = [
  { key: 'col.new', situations: ['PENDING_PAYMENT', 'PENDING'] },
  { key: 'col.accepted', situations: ['ACCEPTED'] },
  { key: 'col.preparing', situations: ['PREPARING'] },
  { key: 'col.ready', situations: ['READY'] },
  { key: 'col.delivery', situations: ['DELIVERY'] },
  { key: 'col.done', situations: ['DONE', 'CANCELLED'] },
];
