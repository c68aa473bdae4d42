import type { PanelRole } from './codes.ts';
import type { PanelArea } from './rpc.ts';

/**
 * What a role reaches (areas: PANEL_AREAS of rpc.ts): STAFF runs the orders board, the menu and
 * reads the store; OWNER everything. The panel's guards and the page's tabs apply this one rule.
 */
export const STAFF_AREAS: readonly PanelArea[] = ['orders', 'menu', 'store'];

export const canReach = (role: PanelRole, area: PanelArea): boolean =>
  role === 'OWNER' || STAFF_AREAS.includes(area);
