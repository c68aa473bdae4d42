import type { PanelArea, PanelRole } from '@od/contracts';

/** What a role reaches (areas: PANEL_AREAS of @od/contracts). STAFF runs the orders board and the menu; OWNER everything. */

const STAFF_AREAS: ReadonlySet<PanelArea> = new Set(['orders', 'menu', 'store']);

export const canReach = (role: PanelRole, area: PanelArea): boolean =>
  role === 'OWNER' || STAFF_AREAS.has(area);
