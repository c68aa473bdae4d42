import type { PanelRole } from '@od/contracts';

/** What a role reaches. STAFF runs the orders board and the menu; OWNER everything. */
export const AREAS = ['orders', 'menu', 'store', 'credentials', 'settings'] as const;
export type Area = (typeof AREAS)[number];

const STAFF_AREAS: ReadonlySet<Area> = new Set(['orders', 'menu', 'store']);

export const canReach = (role: PanelRole, area: Area): boolean => role === 'OWNER' || STAFF_AREAS.has(area);
