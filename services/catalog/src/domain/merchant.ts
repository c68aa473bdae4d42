import {
  type AdminMerchant,
  DEFAULT_CONFIRMATION_TIMEOUT_SECONDS,
  DEFAULT_TIME_ZONE,
  isOpen,
  type Merchant,
  type MerchantAddress,
  type MerchantCreate,
  type MerchantPatch,
  type MerchantService,
  type MerchantStatus,
  normalizeHours,
  type PauseInput,
  SERVICE_TYPES,
  type ServiceHours,
  type ServiceType,
  type StoreDay,
  type TimePeriods,
  zoneOffset,
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
  services: ServiceState[];
  menuId: string;
  createdAt: string;
  lastUpdate: string;
  /** the store's day (docs/decisions.md "A store's day") */
  timeZone: string;
  serviceHours: ServiceHours | null;
  pausedUntil: string | null;
  pauseReason: string | null;
  confirmationTimeoutSeconds: number;
}

export interface ServiceState {
  serviceType: ServiceType;
  status: MerchantStatus;
  pausedUntil?: string | null;
  pauseReason?: string | null;
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
  const { timeZone, serviceHours, pause, confirmationTimeoutSeconds } = input;
  const base: StoreState = {
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
    timeZone: DEFAULT_TIME_ZONE,
    serviceHours: null,
    pausedUntil: null,
    pauseReason: null,
    confirmationTimeoutSeconds: DEFAULT_CONFIRMATION_TIMEOUT_SECONDS,
  };
  return patchStore(base, { timeZone, serviceHours, pause, confirmationTimeoutSeconds }, now);
}

/** A pause of `minutes` from `now` (null ends it). */
function pauseOf(p: PauseInput, now: string): { pausedUntil: string | null; pauseReason: string | null } {
  if (!p) return { pausedUntil: null, pauseReason: null };
  return { pausedUntil: new Date(Date.parse(now) + p.minutes * 60_000).toISOString(), pauseReason: p.reason };
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
    next.services = patch.services.map((s) => {
      const was = state.services.find((o) => o.serviceType === s.serviceType);
      return {
        serviceType: s.serviceType,
        status: s.status ?? was?.status ?? 'AVAILABLE',
        ...(s.pause !== undefined
          ? pauseOf(s.pause, now)
          : { pausedUntil: was?.pausedUntil ?? null, pauseReason: was?.pauseReason ?? null }),
      };
    });
  if (patch.timeZone !== undefined) next.timeZone = patch.timeZone;
  if (patch.serviceHours !== undefined)
    next.serviceHours = patch.serviceHours === null ? null : normalizeHours(patch.serviceHours);
  if (patch.pause !== undefined) Object.assign(next, pauseOf(patch.pause, now));
  if (patch.confirmationTimeoutSeconds !== undefined)
    next.confirmationTimeoutSeconds = patch.confirmationTimeoutSeconds;
  return next;
}

/** What intake needs (MerchantSnapshot.store): the switches as set, the pauses, hours and zone. */
export function storeDay(s: StoreState): StoreDay {
  return {
    status: s.status,
    pausedUntil: s.pausedUntil,
    pauseReason: s.pauseReason,
    timeZone: s.timeZone,
    serviceHours: s.serviceHours,
    services: s.services.map(serviceSwitch),
    confirmationTimeoutSeconds: s.confirmationTimeoutSeconds,
  };
}

/** A service's switch and pause, absent pause fields as null. */
const serviceSwitch = (x: ServiceState) => ({
  serviceType: x.serviceType,
  status: x.status,
  pausedUntil: x.pausedUntil ?? null,
  pauseReason: x.pauseReason ?? null,
});

const paused = (until: string | null | undefined, at: Date) =>
  until != null && Date.parse(until) > at.getTime();

/**
 * The public Merchant's statuses at `at`: the store is AVAILABLE when its switch is on and it is not
 * paused; a service when its switch and the store's are on and neither is paused. Opening hours do
 * not change `status` (the standard keeps it for unexpected events; the hours are `serviceHours`).
 * `until`: when this answer stops being true (the earliest pause still running), if ever.
 */
export function statusesAt(
  d: StoreDay,
  at: Date,
): {
  status: MerchantStatus;
  services: Partial<Record<ServiceType, MerchantStatus>>;
  until?: number;
} {
  const ends = [d.pausedUntil, ...d.services.map((x) => x.pausedUntil)]
    .filter((u) => paused(u, at))
    .map((u) => Date.parse(u as string));
  const storeOn = d.status === 'AVAILABLE' && !paused(d.pausedUntil, at);
  const services: Partial<Record<ServiceType, MerchantStatus>> = {};
  for (const x of d.services)
    services[x.serviceType] =
      storeOn && x.status === 'AVAILABLE' && !paused(x.pausedUntil, at) ? 'AVAILABLE' : 'UNAVAILABLE';
  return {
    status: storeOn ? 'AVAILABLE' : 'UNAVAILABLE',
    services,
    ...(ends.length ? { until: Math.min(...ends) } : {}),
  };
}

/**
 * The standard's ServiceHours of a store (one schedule for every service; id = the store's). Times
 * are RFC 3339 `time`s: the local wall-clock time with the zone's offset when rendered (São Paulo:
 * "18:00:00-03:00"; a zone with DST shows the offset of the day of the last edit).
 */
export function standardHours(s: StoreState, at: Date) {
  if (!s.serviceHours) return null;
  const off = zoneOffset(s.timeZone, at);
  const period = (p: TimePeriods) => ({
    startTime: `${p.startTime}:00${off}`,
    endTime: `${p.endTime}:00${off}`,
  });
  return {
    id: s.id,
    weekHours: s.serviceHours.weekHours.map((w) => ({
      dayOfWeek: w.dayOfWeek,
      timePeriods: period(w.timePeriods),
    })),
    holidayHours: s.serviceHours.holidayHours.map((h) => ({
      date: h.date,
      ...(h.timePeriods ? { timePeriods: period(h.timePeriods) } : {}),
    })),
  };
}

/** SPEC's Merchant, fields in SPEC order, with its statuses at `at` (see statusesAt). */
export function publicMerchant(s: StoreState, at: Date = new Date(s.lastUpdate)): Merchant {
  const now = statusesAt(storeDay(s), at);
  const hours = standardHours(s, at);
  const services: MerchantService[] = s.services.map((x) => ({
    serviceType: x.serviceType,
    status: now.services[x.serviceType] ?? 'UNAVAILABLE',
    menuId: s.menuId,
    ...(hours ? { serviceHours: hours } : {}),
  }));
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    document: s.document,
    status: now.status,
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

/** The admin view: the public Merchant now, the test flag, and the store's day as set. */
export function adminMerchant(s: StoreState, at: Date): AdminMerchant {
  const day = storeDay(s);
  return {
    ...publicMerchant(s, at),
    test: s.test,
    switchStatus: s.status,
    pausedUntil: s.pausedUntil,
    pauseReason: s.pauseReason,
    timeZone: s.timeZone,
    serviceHours: s.serviceHours,
    confirmationTimeoutSeconds: s.confirmationTimeoutSeconds,
    serviceSwitches: day.services.map(serviceSwitch),
    openNow: SERVICE_TYPES.map((t) => {
      const o = isOpen(day, t, at);
      return o.open ? { serviceType: t, open: true } : { serviceType: t, open: false, reason: o.reason };
    }),
  };
}
