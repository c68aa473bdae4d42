import { PANEL_AREAS, type PanelArea, type PanelRole } from '@od/contracts';

/** What a role reaches. STAFF runs the orders board and the menu; OWNER everything. */
export const AREAS = PANEL_AREAS;
export type Area = PanelArea;

const STAFF_AREAS: ReadonlySet<Area> = new Set(['orders', 'menu', 'store']);

export const canReach = (role: PanelRole, area: Area): boolean => role === 'OWNER' || STAFF_AREAS.has(area);
