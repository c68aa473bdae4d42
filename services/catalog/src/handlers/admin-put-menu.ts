import { type CATALOG_OPS, menuInputSchema, type OpHandler } from '@od/contracts';
import { errors, HttpException, parseAdminBody } from '@od/errors';
import { renderMenu } from '../domain/menu.ts';
import { adminMerchantId, type HandlerDeps, storeNotFound } from './common.ts';

/**
 * PUT /admin/v1/merchants/{merchantId}/menu: replaces the store's menu whole. Body: the menu object
 * or the public form (an array holding it). Answers 200 with the menu as served.
 */
export const adminPutMenu =
  ({ db, now, changed }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminPutMenu> =>
  async (req) => {
    const id = adminMerchantId(req);
    let body = req.body;
    if (body === undefined || body === null)
      throw new HttpException(errors.adminValidation('Envie o cardápio no corpo da requisição.'));
    if (Array.isArray(body)) {
      if (body.length !== 1)
        throw new HttpException(
          errors.adminValidation('O cardápio é um só: envie um menu ou um array com exatamente um menu.'),
        );
      body = body[0];
    }
    const input = parseAdminBody(menuInputSchema, body, 'Cardápio inválido.');
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
