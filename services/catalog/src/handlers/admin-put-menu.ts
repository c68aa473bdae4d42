import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { renderMenu } from '../domain/menu.ts';
import { adminMerchantId, type HandlerDeps, storeNotFound } from './common.ts';

/**
 * PUT /admin/v1/merchants/{merchantId}/menu: replaces the store's menu whole. Body: the menu object
 * or the public form (an array holding it), unwrapped by the op's schema. Answers 200 with the menu
 * as served.
 */
export const adminPutMenu =
  ({ db, now, changed }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminPutMenu> =>
  async (req) => {
    const id = adminMerchantId(req);
    const input = req.body;
    const menu = await db.edit(id, (s) => {
      const menuId = (input.id ?? s.menuId).toLowerCase();
      const rendered = renderMenu(input, menuId);
      return {
        state: { ...s, menuId, lastUpdate: now().toISOString() },
        menu: { source: input, public: rendered },
        result: rendered,
      };
    });
    if (!menu) throw storeNotFound();
    changed(id);
    return { status: 200, body: menu };
  };
