import { z } from 'zod';
import { addressLines } from './address.ts';
import { GUID_PATTERN } from './ids.ts';
import { COUNT, TEXT, text } from './limits.ts';

/** SPEC "Merchant": the public shape of `GET /v1/merchant/{merchantId}`, and the admin inputs. */
export const MERCHANT_STATUSES = ['AVAILABLE', 'UNAVAILABLE'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];
export const SERVICE_TYPES = ['DELIVERY', 'TAKEOUT'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const merchantAddressSchema = z.object({
  ...addressLines,
  complement: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
});
export const merchantServiceSchema = z.object({
  serviceType: z.enum(SERVICE_TYPES),
  status: z.enum(MERCHANT_STATUSES),
  menuId: z.string(),
});
export const merchantSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    document: z.string(),
    status: z.enum(MERCHANT_STATUSES),
    contactEmails: z.array(z.string()),
    contactPhones: z.array(z.string()),
    address: merchantAddressSchema,
    services: z.array(merchantServiceSchema),
    createdAt: z.string(),
    lastUpdate: z.string(),
  })
  .meta({ id: 'Merchant', description: 'SPEC "Merchant" (GET /v1/merchant/{merchantId})' });
/** Admin answers: the public shape plus the internal test flag. */
export const adminMerchantSchema = merchantSchema.extend({ test: z.boolean() });

export type MerchantAddress = z.infer<typeof merchantAddressSchema>;
export type MerchantService = z.infer<typeof merchantServiceSchema>;
export type Merchant = z.infer<typeof merchantSchema>;
export type AdminMerchant = z.infer<typeof adminMerchantSchema>;

// ---------- admin inputs ----------
export const merchantAddressInputSchema = z.object({
  country: text(TEXT.name).optional(),
  state: text(TEXT.name).optional(),
  city: text(TEXT.name).optional(),
  district: text(TEXT.name).optional(),
  street: text(TEXT.addressLine).optional(),
  number: text(TEXT.addressNumber).optional(),
  postalCode: text(TEXT.postalCode).optional(),
  complement: text(TEXT.addressLine).nullable().optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
});
export const merchantServiceInputSchema = z.object({
  serviceType: z.enum(SERVICE_TYPES),
  status: z.enum(MERCHANT_STATUSES).optional(),
});
const servicesInput = z
  .array(merchantServiceInputSchema)
  .max(SERVICE_TYPES.length)
  .refine((s) => new Set(s.map((x) => x.serviceType)).size === s.length, 'serviceType repetido');

const merchantFields = {
  name: text(TEXT.name).trim().min(1, 'nome obrigatório'),
  test: z.boolean().optional(),
  description: text(TEXT.description).optional(),
  document: text(TEXT.document).optional(),
  status: z.enum(MERCHANT_STATUSES).optional(),
  contactEmails: z.array(z.email('e-mail inválido').max(TEXT.email)).max(COUNT.contactEmails).optional(),
  contactPhones: z.array(text(TEXT.phone).min(1, 'telefone vazio')).max(COUNT.contactPhones).optional(),
  /** partial: missing fields take defaults (create) or keep their value (patch) */
  address: merchantAddressInputSchema.optional(),
  /** each store has one menu: every service points to it (menuId is not an input) */
  services: servicesInput.optional(),
};
/** POST /admin/v1/merchants: everything optional except `name`. */
export const merchantCreateSchema = z.object({
  /** optional fixed id (GUID), e.g. for demos; generated otherwise */
  id: z.string().regex(GUID_PATTERN, 'id deve ser um GUID').optional(),
  ...merchantFields,
});
/** PATCH /admin/v1/merchants/{merchantId}: any subset of the fields. */
export const merchantPatchSchema = z.object({ ...merchantFields, name: merchantFields.name.optional() });

export type MerchantCreate = z.infer<typeof merchantCreateSchema>;
export type MerchantPatch = z.infer<typeof merchantPatchSchema>;
