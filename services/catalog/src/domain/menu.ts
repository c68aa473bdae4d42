import { type Menu, renderMenu } from '@od/contracts';

/** The rendering of an admin menu input lives in @od/contracts (its size is an input limit). */
export { DEFAULT_MENU_NAME, renderMenu, variationsGroup } from '@od/contracts';

/** The menu a new store starts with: no categories, items or groups. */
export const emptyMenu = (menuId: string): Menu => renderMenu({}, menuId);
