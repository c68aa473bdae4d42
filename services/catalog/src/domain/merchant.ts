import type {
  AdminMerchant,
  Merchant,
  MerchantAddress,
  MerchantCreate,
  MerchantPatch,
  MerchantService,
  MerchantStatus,
  ServiceType,
} from '@od/contracts';

/** The editable state of a store (what the table columns hold). */
export interface StoreState {
  id: string;
  test: boolean;
  name: string;
  description: string;
  document: string;
  status: MerchantStatus;
  contactEmails: string[];
  contactPhones: string[];
  address: MerchantAddress;
  services: { serviceType: ServiceType; status: MerchantStatus }[];
  menuId: string;
  createdAt: string;
  lastUpdate: string;
}

export const DEFAULT_ADDRESS: MerchantAddress = {
  country: 'BR',
  state: '',
  city: '',
  district: '',
  street: '',
  number: '',
  postalCode: '',
  complement: null,
  latitude: 0,
  longitude: 0,
};

/** A new store: every field not given takes its default; both services on, both on the one menu. */
export function newStore(
  input: MerchantCreate,
  ids: { id: string; menuId: string },
  now: string,
): StoreState {
  return {
    id: ids.id,
    test: input.test ?? false,
    name: input.name,
    description: input.description ?? '',
    document: input.document ?? '',
    status: input.status ?? 'AVAILABLE',
    contactEmails: input.contactEmails ?? [],
    contactPhones: input.contactPhones ?? [],
    address: mergeAddress(DEFAULT_ADDRESS, input.address),
    services: (
      input.services ?? [
        { serviceType: 'DELIVERY' as const, status: 'AVAILABLE' as const },
        { serviceType: 'TAKEOUT' as const, status: 'AVAILABLE' as const },
      ]
    ).map((s) => ({ serviceType: s.serviceType, status: s.status ?? 'AVAILABLE' })),
    menuId: ids.menuId,
    createdAt: now,
    lastUpdate: now,
  };
}

function mergeAddress(base: MerchantAddress, patch: MerchantCreate['address']): MerchantAddress {
  const out = { ...base };
  if (!patch) return out;
  for (const k of Object.keys(base) as (keyof MerchantAddress)[]) {
    const v = patch[k];
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** An edit: only the fields given change; the address is merged field by field. */
export function patchStore(state: StoreState, patch: MerchantPatch, now: string): StoreState {
  const next: StoreState = { ...state, lastUpdate: now };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.test !== undefined) next.test = patch.test;
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.document !== undefined) next.document = patch.document;
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.contactEmails !== undefined) next.contactEmails = patch.contactEmails;
  if (patch.contactPhones !== undefined) next.contactPhones = patch.contactPhones;
  if (patch.address !== undefined) next.address = mergeAddress(state.address, patch.address);
  if (patch.services !== undefined)
    next.services = patch.services.map((s) => ({
      serviceType: s.serviceType,
      status: s.status ?? state.services.find((o) => o.serviceType === s.serviceType)?.status ?? 'AVAILABLE',
    }));
  return next;
}

/** SPEC's Merchant, fields in SPEC order. */
export function publicMerchant(s: StoreState): Merchant {
  const services: MerchantService[] = s.services.map((x) => ({
    serviceType: x.serviceType,
    status: x.status,
    menuId: s.menuId,
  }));
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    document: s.document,
    status: s.status,
    contactEmails: s.contactEmails,
    contactPhones: s.contactPhones,
    address: {
      country: s.address.country,
      state: s.address.state,
      city: s.address.city,
      district: s.address.district,
      street: s.address.street,
      number: s.address.number,
      postalCode: s.address.postalCode,
      complement: s.address.complement,
      latitude: s.address.latitude,
      longitude: s.address.longitude,
    },
    services,
    createdAt: s.createdAt,
    lastUpdate: s.lastUpdate,
  };
}

export const adminMerchant = (s: StoreState): AdminMerchant => ({ ...publicMerchant(s), test: s.test });
