import { z } from 'zod';
import type { Menu } from '../menu.ts';
import { adminMenuBodySchema } from '../menu-input.ts';
import { type AdminMerchant, type Merchant, merchantCreateSchema, merchantPatchSchema } from '../merchant.ts';
import { defineOps } from '../op.ts';
import { merchantUpdateSchema } from '../open-delivery-merchant.ts';
import type { MerchantSnapshot } from '../ops.ts';
import { ADMIN_AND_PANEL } from '../rpc.ts';

const merchant = z.object({ merchantId: z.string() });

/** RPC ops of the catalog service. Bodies are checked once, by the op's schema when served (admin form for admin ops). */
export const CATALOG_OPS = defineOps('catalog', {
  /** public: the credential's own store -> 200 Merchant | 404 ProblemDetails */
  getMerchant: {
    name: 'merchant.get',
    callers: ['credential'],
    scope: 'merchant:read',
    params: merchant,
    reply: z.custom<Merchant>(),
  },
  /** public: -> 200 [Menu] | 404 ProblemDetails */
  getMenus: {
    name: 'merchant.menus',
    callers: ['credential'],
    scope: 'catalog:read',
    params: merchant,
    reply: z.custom<Menu[]>(),
  },
  /** body MerchantCreate -> 201 AdminMerchant | 409 merchant_exists */
  adminCreate: {
    name: 'admin.merchant.create',
    callers: ['admin'],
    body: merchantCreateSchema,
    invalidMessage: 'Estabelecimento inválido.',
    reply: z.custom<AdminMerchant>(),
  },
  /** -> 200 AdminMerchant | 404 { error: not_found } */
  adminGet: {
    name: 'admin.merchant.get',
    callers: ['admin', 'merchantUser', 'panel'],
    area: 'store',
    params: merchant,
    reply: z.custom<AdminMerchant>(),
  },
  /** body MerchantPatch -> 200 AdminMerchant | 404 */
  adminPatch: {
    name: 'admin.merchant.patch',
    callers: ADMIN_AND_PANEL,
    area: 'settings',
    params: merchant,
    body: merchantPatchSchema,
    invalidMessage: 'Alteração inválida.',
    reply: z.custom<AdminMerchant>(),
  },
  /** -> 200 { menu: Menu } (the public menu, also a valid MenuInput) | 404: the panel's menu editor */
  adminGetMenu: {
    name: 'admin.merchant.menu',
    callers: ADMIN_AND_PANEL,
    area: 'menu',
    params: merchant,
    reply: z.custom<Pick<MerchantSnapshot, 'menu'>>(),
  },
  /** body MenuInput (or [MenuInput]) -> 200 Menu | 404 */
  adminPutMenu: {
    name: 'admin.merchant.putMenu',
    callers: ADMIN_AND_PANEL,
    area: 'menu',
    params: merchant,
    body: adminMenuBodySchema,
    invalidMessage: 'Cardápio inválido.',
    reply: z.custom<Menu>(),
  },
  /**
   * Open Delivery Merchant module (OPEN_DELIVERY credentials; the gateway checks the profile).
   * PUT /v1/merchantOnboarding?merchantId= body MerchantAPIInfo -> 201 MerchantAPIInfo | 204 | 400
   */
  odOnboarding: {
    name: 'od.merchantOnboarding',
    callers: ['credential'],
    scope: 'merchant:write',
    query: z.object({ merchantId: z.string() }),
    body: z.unknown(),
  },
  /** GET /v1/merchantStatus?merchantId= -> 200 MerchantStatus | 404 */
  odMerchantStatus: {
    name: 'od.merchantStatus',
    callers: ['credential'],
    scope: 'merchant:read',
    query: z.object({ merchantId: z.string() }),
  },
  /** POST /v1/menuUpdated body MerchantUpdate (or none) -> 204 | 400 (reads GET /v1/merchant) */
  odMenuUpdated: {
    name: 'od.menuUpdated',
    callers: ['credential'],
    scope: 'merchant:write',
    body: merchantUpdateSchema,
  },
  /** -> 200 { activeKeyId, resealed, unreadable }: point-of-sale api keys sealed under the active key */
  rotateKey: { name: 'admin.secrets.rotateKey', callers: ['admin'] },
  /** what orders (intake, edit) and auth (credential creation) need of a store -> 200 | 404 */
  merchantSnapshot: {
    name: 'internal.merchantSnapshot',
    callers: ['orders', 'auth'],
    body: merchant,
    reply: z.custom<MerchantSnapshot>(),
  },
});
