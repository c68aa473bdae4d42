import { randomUUID } from 'node:crypto';
import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { emptyMenu } from '../domain/menu.ts';
import { adminMerchant, newStore } from '../domain/merchant.ts';
import type { HandlerDeps } from './common.ts';

/** POST /admin/v1/merchants: a store with its empty menu -> 201 Merchant + test (body: the op's schema). */
export const adminCreate =
  ({ db, now }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminCreate> =>
  async (req) => {
    const input = req.body;
    const state = newStore(
      input,
      { id: (input.id ?? randomUUID()).toLowerCase(), menuId: randomUUID() },
      now().toISOString(),
    );
    const created = await db.create(state, { source: {}, public: emptyMenu(state.menuId) });
    if (!created) throw new HttpException(errors.merchantExists());
    return { status: 201, body: adminMerchant(state, now()) };
  };
