import { randomUUID } from 'node:crypto';
import { type CATALOG_OPS, merchantCreateSchema, type OpHandler } from '@od/contracts';
import { errors, HttpException, parseAdminBody } from '@od/errors';
import { emptyMenu } from '../domain/menu.ts';
import { adminMerchant, newStore } from '../domain/merchant.ts';
import type { HandlerDeps } from './common.ts';

/** POST /admin/v1/merchants: a store with its empty menu -> 201 Merchant + test. */
export const adminCreate =
  ({ db, now }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminCreate> =>
  async (req) => {
    const input = parseAdminBody(merchantCreateSchema, req.body, 'Estabelecimento inválido.');
    const state = newStore(
      input,
      { id: (input.id ?? randomUUID()).toLowerCase(), menuId: randomUUID() },
      now().toISOString(),
    );
    const created = await db.create(state, { source: {}, public: emptyMenu(state.menuId) });
    if (!created) throw new HttpException(errors.merchantExists());
    return { status: 201, body: adminMerchant(state, now()) };
  };
