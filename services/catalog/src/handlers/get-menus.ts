import { servedPart } from './get-merchant.ts';

/** GET /v1/merchant/{merchantId}/menus: an array holding the store's single menu. */
export const getMenus = servedPart('menus');
