import { z } from 'zod';
import { API_PROFILES, DELIVERY_MODES } from './credentials.ts';
import { TEXT, text } from './limits.ts';
import { SCOPES } from './scopes.ts';

// The bodies of auth's credential ops (Admin API, panel): apart from credential-admin.ts, which
// names those ops, so that the ops can declare them.

export function isHttpsUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.hostname.length > 0 && !u.username && !u.password;
  } catch {
    return false;
  }
}

export const webhookUrlSchema = text(
  TEXT.url,
  `webhookUrl deve ter no máximo ${TEXT.url} caracteres.`,
).refine(isHttpsUrl, 'webhookUrl deve ser uma URL https:// válida.');

export const CREDENTIAL_NAME_MAX = 100;
const nameSchema = text(CREDENTIAL_NAME_MAX, `name deve ter no máximo ${CREDENTIAL_NAME_MAX} caracteres.`)
  .trim()
  .min(1, 'name é obrigatório.');

export const createCredentialBodySchema = z
  .object({
    name: nameSchema,
    scopes: z
      .array(z.enum(SCOPES))
      .max(SCOPES.length * 2, 'scopes tem escopos demais.')
      .min(1, 'scopes deve ter ao menos um escopo.')
      .transform((s) => SCOPES.filter((x) => s.includes(x))),
    deliveryMode: z.enum(DELIVERY_MODES),
    webhookUrl: webhookUrlSchema.nullish(),
    includeMarketplaceOrders: z.boolean().optional(),
    apiProfile: z.enum(API_PROFILES).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.deliveryMode !== 'POLLING' && !b.webhookUrl) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhookUrl'],
        message: 'webhookUrl é obrigatório para deliveryMode WEBHOOK ou BOTH.',
      });
    }
  });
export type CreateCredentialBody = z.infer<typeof createCredentialBodySchema>;

/** Scopes cannot be edited (a new credential is required): unknown keys are refused. */
export const updateCredentialBodySchema = z.strictObject({
  name: nameSchema.optional(),
  webhookUrl: webhookUrlSchema.nullable().optional(),
  deliveryMode: z.enum(DELIVERY_MODES).optional(),
  includeMarketplaceOrders: z.boolean().optional(),
});
export type UpdateCredentialBody = z.infer<typeof updateCredentialBodySchema>;
