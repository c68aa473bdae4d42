import { z } from 'zod';
import { DAYS_OF_WEEK, type DayOfWeek } from './codes.ts';
import { text } from './limits.ts';

/**
 * A store's day: open/closed switches, timed pauses, the weekly opening hours with exceptions, in
 * the store's time zone. The shapes follow the Open Delivery 1.4.0 `ServiceHours` (weekHours of
 * dayOfWeek + timePeriods, holidayHours of date + optional timePeriods); times are the store's
 * local wall-clock times "HH:MM" (seconds accepted, dropped). `isOpen` is the one rule order intake
 * applies (docs/decisions.md "A store's day").
 */

export { DAYS_OF_WEEK, type DayOfWeek } from './codes.ts';

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';
/** 8 minutes: the order of what marketplaces give a kitchen before they cancel (docs/decisions.md) */
export const DEFAULT_CONFIRMATION_TIMEOUT_SECONDS = 480;
export const MIN_CONFIRMATION_TIMEOUT_SECONDS = 30;
export const MAX_CONFIRMATION_TIMEOUT_SECONDS = 86_400;
export const MAX_PAUSE_MINUTES = 1440;
export const MAX_PAUSE_REASON = 200;
export const MAX_WEEK_HOURS = 50;
export const MAX_HOLIDAY_HOURS = 200;

/** A valid IANA zone (or an alias Intl knows, e.g. UTC). */
export function isTimeZone(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const time = z
  .string()
  .max(12)
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/, 'hora no formato HH:MM')
  .transform((t) => t.slice(0, 5));
/** endTime <= startTime: the period crosses midnight (18:00-02:00); equal = the whole 24 hours */
export const timePeriodsSchema = z.object({ startTime: time, endTime: time });
export const weekHoursSchema = z.object({
  dayOfWeek: z
    .array(z.enum(DAYS_OF_WEEK))
    .min(1)
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'dia repetido'),
  timePeriods: timePeriodsSchema,
});
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'data no formato AAAA-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'data inválida',
  );
/** a special day: its periods replace the week's; without `timePeriods` the store is closed that day */
export const holidayHoursSchema = z.object({ date: isoDay, timePeriods: timePeriodsSchema.optional() });
export const serviceHoursInputSchema = z.object({
  weekHours: z.array(weekHoursSchema).max(MAX_WEEK_HOURS),
  holidayHours: z.array(holidayHoursSchema).max(MAX_HOLIDAY_HOURS).optional(),
});
export type TimePeriods = z.infer<typeof timePeriodsSchema>;
export type ServiceHours = {
  weekHours: z.infer<typeof weekHoursSchema>[];
  holidayHours: z.infer<typeof holidayHoursSchema>[];
};

export const timeZoneSchema = z.string().max(64).refine(isTimeZone, 'fuso horário IANA desconhecido');
/** `{ minutes, reason }` pauses for that long from now; null ends a pause */
export const pauseInputSchema = z
  .object({
    minutes: z.number().int().min(1).max(MAX_PAUSE_MINUTES),
    reason: text(MAX_PAUSE_REASON).trim().min(1, 'motivo obrigatório'),
  })
  .nullable();
export type PauseInput = z.infer<typeof pauseInputSchema>;
export const confirmationTimeoutSchema = z
  .number()
  .int()
  .min(MIN_CONFIRMATION_TIMEOUT_SECONDS, `mínimo ${MIN_CONFIRMATION_TIMEOUT_SECONDS} segundos`)
  .max(MAX_CONFIRMATION_TIMEOUT_SECONDS);

type Status = 'AVAILABLE' | 'UNAVAILABLE';
type Service = 'DELIVERY' | 'TAKEOUT';

/** What intake needs to know of a store (MerchantSnapshot.store; the admin view shows the same). */
export interface StoreDay {
  status: Status;
  pausedUntil: string | null;
  pauseReason: string | null;
  timeZone: string;
  serviceHours: ServiceHours | null;
  services: {
    serviceType: Service;
    status: Status;
    pausedUntil?: string | null;
    pauseReason?: string | null;
  }[];
  confirmationTimeoutSeconds: number;
}

export type ClosedReason =
  /** the store's switch is UNAVAILABLE */
  | 'STORE_CLOSED'
  | 'STORE_PAUSED'
  /** the store does not offer the service type at all */
  | 'SERVICE_NOT_OFFERED'
  | 'SERVICE_CLOSED'
  | 'SERVICE_PAUSED'
  | 'OUTSIDE_HOURS';
export type Openness = { open: true } | { open: false; reason: ClosedReason; until?: string };

const active = (until: string | null | undefined, at: Date): until is string =>
  until != null && Date.parse(until) > at.getTime();

/**
 * Is the store taking orders of `serviceType` (null: a service-less order, e.g. INDOOR) at `at`?
 * The switches (store, service) hold whatever `at`; a pause and the hours are judged at `at`
 * (a scheduled order is judged by its scheduled time). Pure.
 */
export function isOpen(store: StoreDay, serviceType: Service | null, at: Date): Openness {
  if (store.status !== 'AVAILABLE') return { open: false, reason: 'STORE_CLOSED' };
  if (serviceType) {
    const s = store.services.find((x) => x.serviceType === serviceType);
    if (!s) return { open: false, reason: 'SERVICE_NOT_OFFERED' };
    if (s.status !== 'AVAILABLE') return { open: false, reason: 'SERVICE_CLOSED' };
    if (active(store.pausedUntil, at))
      return { open: false, reason: 'STORE_PAUSED', until: store.pausedUntil };
    if (active(s.pausedUntil, at)) return { open: false, reason: 'SERVICE_PAUSED', until: s.pausedUntil };
  } else if (active(store.pausedUntil, at))
    return { open: false, reason: 'STORE_PAUSED', until: store.pausedUntil };
  if (store.serviceHours && !withinHours(store.serviceHours, store.timeZone, at))
    return { open: false, reason: 'OUTSIDE_HOURS' };
  return { open: true };
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `tz` at `at`: its date, weekday and minute of the day (Intl, DST included). */
export function wallClock(at: Date, tz: string): { date: string; day: DayOfWeek; minute: number } {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(at)) p[x.type] = x.value;
  const date = `${p.year}-${p.month}-${p.day}`;
  return { date, day: dayOf(date), minute: Number(p.hour) * 60 + Number(p.minute) };
}

/** The zone's UTC offset at `at` as RFC 3339 wants it in a `time`: "-03:00", "+05:30", "+00:00". */
export function zoneOffset(tz: string, at: Date): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-]\d{2}:\d{2})$/.exec(name);
  return m ? m[1] : '+00:00';
}

/** Monday-first weekday of a calendar date. */
function dayOf(date: string): DayOfWeek {
  return DAYS_OF_WEEK[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
}

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The periods of one calendar day: its special day's when it has one, else its weekday's. */
function periodsOf(h: ServiceHours, date: string): TimePeriods[] {
  const special = h.holidayHours.filter((x) => x.date === date);
  if (special.length) return special.flatMap((x) => (x.timePeriods ? [x.timePeriods] : []));
  const day = dayOf(date);
  return h.weekHours.filter((w) => w.dayOfWeek.includes(day)).map((w) => w.timePeriods);
}

/**
 * Within the hours: a period of today that has started (and, if it ends today, not ended), or a
 * period of yesterday crossing midnight that has not ended yet. Wall-clock times: in a DST gap the
 * skipped times never occur, in an overlap the repeated hour counts as what the clock shows.
 */
export function withinHours(h: ServiceHours, tz: string, at: Date): boolean {
  const now = wallClock(at, tz);
  for (const p of periodsOf(h, now.date)) {
    const s = minutes(p.startTime);
    const e = minutes(p.endTime);
    if (now.minute >= s && (e <= s || now.minute < e)) return true;
  }
  for (const p of periodsOf(h, dayBefore(now.date))) {
    const s = minutes(p.startTime);
    const e = minutes(p.endTime);
    if (e <= s && now.minute < e) return true;
  }
  return false;
}

/** The stored form of a validated input: holidayHours always present. */
export function normalizeHours(h: z.infer<typeof serviceHoursInputSchema>): ServiceHours {
  return { weekHours: h.weekHours, holidayHours: h.holidayHours ?? [] };
}
