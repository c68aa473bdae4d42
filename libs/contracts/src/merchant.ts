import { z } from 'zod';
import { addressLines } from './address.ts';
import { MERCHANT_STATUSES, SERVICE_TYPES } from './codes.ts';
import { GUID_PATTERN } from './ids.ts';
import { COUNT, TEXT, text } from './limits.ts';
import {
  confirmationTimeoutSchema,
  DAYS_OF_WEEK,
  pauseInputSchema,
  type ServiceHours,
  serviceHoursInputSchema,
  timeZoneSchema,
} from './store-hours.ts';

/** SPEC "Merchant": the public shape of `GET /v1/merchant/{merchantId}`, and the admin inputs. */
export { MERCHANT_STATUSES, type MerchantStatus, SERVICE_TYPES, type ServiceType } from './codes.ts';

export const merchantAddressSchema = z.object({
  ...addressLines,
  complement: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
});
const periodOut = z.object({ startTime: z.string(), endTime: z.string() });
/** the standard's ServiceHours (times are the store's local times, see timeZone on the admin view) */
const serviceHoursSchema = z.object({
  id: z.string(),
  weekHours: z.array(z.object({ dayOfWeek: z.array(z.enum(DAYS_OF_WEEK)), timePeriods: periodOut })),
  holidayHours: z.array(z.object({ date: z.string(), timePeriods: periodOut.optional() })),
});
export const merchantServiceSchema = z.object({
  serviceType: z.enum(SERVICE_TYPES),
  /** AVAILABLE = the service's switch and the store's are on and neither is paused now */
  status: z.enum(MERCHANT_STATUSES),
  menuId: z.string(),
  /** present when the store has opening hours */
  serviceHours: serviceHoursSchema.optional(),
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
const pauseView = { pausedUntil: z.string().nullable(), pauseReason: z.string().nullable() };
/**
 * Admin answers: the public shape plus the internal test flag and the store's day as set (the
 * switches, pauses, hours, zone, confirmation timeout) and whether intake is open right now.
 */
export const adminMerchantSchema = merchantSchema.extend({
  test: z.boolean(),
  /** the store's switch as set (the public `status` also reflects a pause) */
  switchStatus: z.enum(MERCHANT_STATUSES),
  ...pauseView,
  timeZone: z.string(),
  /** as set: local "HH:MM" times in timeZone; null = no hours */
  serviceHours: z.custom<ServiceHours>().nullable(),
  confirmationTimeoutSeconds: z.number(),
  serviceSwitches: z.array(
    z.object({ serviceType: z.enum(SERVICE_TYPES), status: z.enum(MERCHANT_STATUSES), ...pauseView }),
  ),
  /** per service type: does intake take an instant order now (reason when not) */
  openNow: z.array(
    z.object({ serviceType: z.enum(SERVICE_TYPES), open: z.boolean(), reason: z.string().optional() }),
  ),
});

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
  /** pause this service type only: `{ minutes, reason }`, null resumes it */
  pause: pauseInputSchema.optional(),
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
  /** IANA zone of the opening hours (default America/Sao_Paulo) */
  timeZone: timeZoneSchema.optional(),
  /** weekly hours + special days (standard ServiceHours shape, local "HH:MM"); null = no hours (always open) */
  serviceHours: serviceHoursInputSchema.nullable().optional(),
  /** pause the whole store: `{ minutes, reason }` from now; null resumes it */
  pause: pauseInputSchema.optional(),
  /** a PENDING order nobody confirms is cancelled after this (>= 30 s; default 480) */
  confirmationTimeoutSeconds: confirmationTimeoutSchema.optional(),
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
