import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAYS_OF_WEEK,
  isOpen,
  isTimeZone,
  type ServiceHours,
  type StoreDay,
  serviceHoursInputSchema,
  wallClock,
  withinHours,
} from './store-hours.ts';

const ALL_DAYS = [...DAYS_OF_WEEK];
const store = (over: Partial<StoreDay> = {}): StoreDay => ({
  status: 'AVAILABLE',
  pausedUntil: null,
  pauseReason: null,
  timeZone: 'America/Sao_Paulo',
  serviceHours: null,
  services: [
    { serviceType: 'DELIVERY', status: 'AVAILABLE' },
    { serviceType: 'TAKEOUT', status: 'AVAILABLE' },
  ],
  confirmationTimeoutSeconds: 480,
  ...over,
});
const week = (startTime: string, endTime: string, days = ALL_DAYS): ServiceHours => ({
  weekHours: [{ dayOfWeek: days, timePeriods: { startTime, endTime } }],
  holidayHours: [],
});
// 2026-11-25 is a Wednesday; São Paulo is UTC-3 all year (no DST since 2019)
const sp = (local: string) => new Date(`${local}-03:00`);

describe('isOpen: switches and pauses', () => {
  const at = sp('2026-11-25T12:00:00');
  it('an open store with no hours is open for every service and for service-less orders', () => {
    expect(isOpen(store(), 'DELIVERY', at)).toEqual({ open: true });
    expect(isOpen(store(), 'TAKEOUT', at)).toEqual({ open: true });
    expect(isOpen(store(), null, at)).toEqual({ open: true });
  });
  it('the store switch closes everything, whatever the time', () => {
    const s = store({ status: 'UNAVAILABLE' });
    for (const t of ['DELIVERY', 'TAKEOUT', null] as const)
      expect(isOpen(s, t, at)).toEqual({ open: false, reason: 'STORE_CLOSED' });
  });
  it('a service switch closes that service only', () => {
    const s = store({
      services: [
        { serviceType: 'DELIVERY', status: 'UNAVAILABLE' },
        { serviceType: 'TAKEOUT', status: 'AVAILABLE' },
      ],
    });
    expect(isOpen(s, 'DELIVERY', at)).toEqual({ open: false, reason: 'SERVICE_CLOSED' });
    expect(isOpen(s, 'TAKEOUT', at)).toEqual({ open: true });
    expect(isOpen(s, null, at)).toEqual({ open: true });
  });
  it('a service the store does not list is not offered', () => {
    const s = store({ services: [{ serviceType: 'TAKEOUT', status: 'AVAILABLE' }] });
    expect(isOpen(s, 'DELIVERY', at)).toEqual({ open: false, reason: 'SERVICE_NOT_OFFERED' });
  });
  it('a pause holds until pausedUntil, then the store reopens by itself', () => {
    const until = new Date(at.getTime() + 30 * 60_000).toISOString();
    const s = store({ pausedUntil: until, pauseReason: 'cozinha cheia' });
    expect(isOpen(s, 'DELIVERY', at)).toEqual({ open: false, reason: 'STORE_PAUSED', until });
    expect(isOpen(s, null, at)).toEqual({ open: false, reason: 'STORE_PAUSED', until });
    expect(isOpen(s, 'DELIVERY', new Date(until))).toEqual({ open: true });
    expect(isOpen(s, 'DELIVERY', new Date(Date.parse(until) + 1))).toEqual({ open: true });
  });
  it('a service pause holds that service only', () => {
    const until = new Date(at.getTime() + 60_000).toISOString();
    const s = store({
      services: [
        { serviceType: 'DELIVERY', status: 'AVAILABLE', pausedUntil: until },
        { serviceType: 'TAKEOUT', status: 'AVAILABLE' },
      ],
    });
    expect(isOpen(s, 'DELIVERY', at)).toEqual({ open: false, reason: 'SERVICE_PAUSED', until });
    expect(isOpen(s, 'TAKEOUT', at)).toEqual({ open: true });
    expect(isOpen(s, 'DELIVERY', new Date(until))).toEqual({ open: true });
  });
  it('a scheduled time after the pause is open (the caller passes the scheduled time)', () => {
    const s = store({ pausedUntil: new Date(at.getTime() + 60_000).toISOString() });
    expect(isOpen(s, 'DELIVERY', new Date(at.getTime() + 3_600_000)).open).toBe(true);
  });
});

describe('isOpen: opening hours in the store time zone', () => {
  const lunch = store({ serviceHours: week('11:00', '15:00') });
  it('within [start, end) local time: open; before and at the end: closed', () => {
    expect(isOpen(lunch, 'DELIVERY', sp('2026-11-25T10:59:00')).open).toBe(false);
    expect(isOpen(lunch, 'DELIVERY', sp('2026-11-25T11:00:00')).open).toBe(true);
    expect(isOpen(lunch, 'DELIVERY', sp('2026-11-25T14:59:00')).open).toBe(true);
    expect(isOpen(lunch, 'DELIVERY', sp('2026-11-25T15:00:00'))).toEqual({
      open: false,
      reason: 'OUTSIDE_HOURS',
    });
  });
  it('the same instant is judged in the store zone, not UTC', () => {
    // 13:00 UTC = 10:00 in São Paulo (closed) = 22:00 in Tokyo (closed) = 14:00 in Berlin (open)
    const at = new Date('2026-11-25T13:00:00Z');
    expect(isOpen(lunch, 'DELIVERY', at).open).toBe(false);
    expect(isOpen({ ...lunch, timeZone: 'Asia/Tokyo' }, 'DELIVERY', at).open).toBe(false);
    expect(isOpen({ ...lunch, timeZone: 'Europe/Berlin' }, 'DELIVERY', at).open).toBe(true);
  });
  it('weekdays: only the listed days', () => {
    const s = store({ serviceHours: week('11:00', '15:00', ['SATURDAY', 'SUNDAY']) });
    expect(isOpen(s, 'DELIVERY', sp('2026-11-25T12:00:00')).open).toBe(false); // Wednesday
    expect(isOpen(s, 'DELIVERY', sp('2026-11-28T12:00:00')).open).toBe(true); // Saturday
    expect(isOpen(s, 'DELIVERY', sp('2026-11-29T12:00:00')).open).toBe(true); // Sunday
    expect(isOpen(s, 'DELIVERY', sp('2026-11-30T12:00:00')).open).toBe(false); // Monday
  });
  it('a period crossing midnight (18:00-02:00) belongs to the day it starts', () => {
    const s = store({ serviceHours: week('18:00', '02:00', ['FRIDAY']) });
    expect(isOpen(s, 'DELIVERY', sp('2026-11-27T17:59:00')).open).toBe(false); // Fri
    expect(isOpen(s, 'DELIVERY', sp('2026-11-27T23:30:00')).open).toBe(true); // Fri
    expect(isOpen(s, 'DELIVERY', sp('2026-11-28T01:59:00')).open).toBe(true); // Sat night, Friday's
    expect(isOpen(s, 'DELIVERY', sp('2026-11-28T02:00:00')).open).toBe(false);
    expect(isOpen(s, 'DELIVERY', sp('2026-11-28T19:00:00')).open).toBe(false); // Sat evening: not listed
    expect(isOpen(s, 'DELIVERY', sp('2026-11-27T01:00:00')).open).toBe(false); // Thu's night: not listed
  });
  it('start = end is the whole 24 hours; an empty week is always closed', () => {
    const all = store({ serviceHours: week('00:00', '00:00') });
    const none = store({ serviceHours: { weekHours: [], holidayHours: [] } });
    for (const h of ['00:00', '06:30', '23:59']) {
      expect(isOpen(all, 'TAKEOUT', sp(`2026-11-25T${h}:00`)).open).toBe(true);
      expect(isOpen(none, 'TAKEOUT', sp(`2026-11-25T${h}:00`)).open).toBe(false);
    }
  });
  it('several periods a day (lunch and dinner)', () => {
    const s = store({
      serviceHours: {
        weekHours: [
          { dayOfWeek: ALL_DAYS, timePeriods: { startTime: '11:00', endTime: '15:00' } },
          { dayOfWeek: ALL_DAYS, timePeriods: { startTime: '18:00', endTime: '23:00' } },
        ],
        holidayHours: [],
      },
    });
    expect(isOpen(s, 'DELIVERY', sp('2026-11-25T12:00:00')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', sp('2026-11-25T16:00:00')).open).toBe(false);
    expect(isOpen(s, 'DELIVERY', sp('2026-11-25T19:00:00')).open).toBe(true);
  });
  it('a special day without periods is closed; with periods they replace the week', () => {
    const s = store({
      serviceHours: {
        ...week('11:00', '23:00'),
        holidayHours: [
          { date: '2026-12-25' },
          { date: '2026-12-24', timePeriods: { startTime: '11:00', endTime: '16:00' } },
        ],
      },
    });
    expect(isOpen(s, 'DELIVERY', sp('2026-12-25T12:00:00')).open).toBe(false);
    expect(isOpen(s, 'DELIVERY', sp('2026-12-24T12:00:00')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', sp('2026-12-24T18:00:00')).open).toBe(false);
    expect(isOpen(s, 'DELIVERY', sp('2026-12-26T18:00:00')).open).toBe(true);
  });
  it("a special day's own night period crosses into the next day; a closed day cuts yesterday's off", () => {
    const s = store({
      serviceHours: {
        ...week('18:00', '02:00'),
        holidayHours: [{ date: '2026-12-31', timePeriods: { startTime: '20:00', endTime: '04:00' } }],
      },
    });
    expect(isOpen(s, 'DELIVERY', sp('2027-01-01T03:00:00')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', sp('2026-12-31T01:00:00')).open).toBe(true); // Dec 30's night
    expect(isOpen(s, 'DELIVERY', sp('2026-12-31T19:00:00')).open).toBe(false);
  });
  it('the hours close intake, not the switches: hours are checked after them', () => {
    const s = store({ status: 'UNAVAILABLE', serviceHours: week('00:00', '00:00') });
    expect(isOpen(s, 'DELIVERY', sp('2026-11-25T12:00:00'))).toEqual({ open: false, reason: 'STORE_CLOSED' });
  });
});

describe('DST: wall-clock hours', () => {
  // New York: 2026-03-08 02:00 EST -> 03:00 EDT; 2026-11-01 02:00 EDT -> 01:00 EST
  const ny = (h: ServiceHours) => store({ timeZone: 'America/New_York', serviceHours: h });
  it('opening at 09:00 local is 14:00 UTC in winter and 13:00 UTC in summer', () => {
    const s = ny(week('09:00', '17:00'));
    expect(isOpen(s, 'DELIVERY', new Date('2026-01-15T13:59:00Z')).open).toBe(false);
    expect(isOpen(s, 'DELIVERY', new Date('2026-01-15T14:00:00Z')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', new Date('2026-07-15T12:59:00Z')).open).toBe(false);
    expect(isOpen(s, 'DELIVERY', new Date('2026-07-15T13:00:00Z')).open).toBe(true);
  });
  it('a night period over the spring-forward gap ends at its wall-clock end', () => {
    const s = ny(week('22:00', '04:00'));
    // 2026-03-08 03:30 EDT = 07:30Z: still open (before 04:00 local); 04:00 EDT = 08:00Z closes
    expect(isOpen(s, 'DELIVERY', new Date('2026-03-08T07:30:00Z')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', new Date('2026-03-08T08:00:00Z')).open).toBe(false);
  });
  it('the repeated hour of the fall-back counts as what the clock shows', () => {
    const s = ny(week('00:00', '01:30'));
    // 01:15 EDT (05:15Z) and 01:15 EST (06:15Z) are both 01:15 on the clock: open
    expect(isOpen(s, 'DELIVERY', new Date('2026-11-01T05:15:00Z')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', new Date('2026-11-01T06:15:00Z')).open).toBe(true);
    expect(isOpen(s, 'DELIVERY', new Date('2026-11-01T06:45:00Z')).open).toBe(false);
  });
});

describe('properties', () => {
  const hhmm = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const instant = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });
  const zone = fc.constantFrom(
    'UTC',
    'America/Sao_Paulo',
    'America/New_York',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
  );
  const mins = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

  it('an every-day period: open iff the local minute is in [start, end) (wrapping past midnight)', () => {
    fc.assert(
      fc.property(hhmm, hhmm, instant, zone, (start, end, at, tz) => {
        const m = wallClock(at, tz).minute;
        const s = mins(start);
        const e = mins(end);
        const want = s < e ? m >= s && m < e : m >= s || m < e;
        expect(withinHours(week(start, end), tz, at)).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });
  it('adding days or periods never closes; a special day without periods always closes that date', () => {
    fc.assert(
      fc.property(hhmm, hhmm, hhmm, hhmm, instant, zone, (s1, e1, s2, e2, at, tz) => {
        const one = week(s1, e1);
        const two: ServiceHours = {
          weekHours: [...one.weekHours, ...week(s2, e2).weekHours],
          holidayHours: [],
        };
        if (withinHours(one, tz, at)) expect(withinHours(two, tz, at)).toBe(true);
        const today = wallClock(at, tz);
        const closedToday: ServiceHours = { ...two, holidayHours: [{ date: today.date }] };
        // only yesterday's night period may still be running
        if (withinHours(closedToday, tz, at)) expect(today.minute).toBeLessThan(Math.max(mins(e1), mins(e2)));
      }),
      { numRuns: 2000 },
    );
  });
  it('a closed switch is closed at every instant; a pause is open exactly from its end', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -1440, max: 1440 }), (at, delta) => {
        expect(isOpen(store({ status: 'UNAVAILABLE' }), 'DELIVERY', at).open).toBe(false);
        const until = new Date(at.getTime() + delta * 60_000).toISOString();
        expect(isOpen(store({ pausedUntil: until }), 'DELIVERY', at).open).toBe(delta <= 0);
      }),
    );
  });
});

describe('inputs', () => {
  it('IANA zones are checked', () => {
    expect(isTimeZone('America/Sao_Paulo')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
  it('times are HH:MM (seconds dropped); dates are real dates; days not repeated', () => {
    const ok = serviceHoursInputSchema.parse({
      weekHours: [{ dayOfWeek: ['MONDAY'], timePeriods: { startTime: '10:00:00', endTime: '18:30' } }],
      holidayHours: [{ date: '2026-12-25' }],
    });
    expect(ok.weekHours[0].timePeriods).toEqual({ startTime: '10:00', endTime: '18:30' });
    const bad = (x: unknown) => expect(serviceHoursInputSchema.safeParse(x).success).toBe(false);
    bad({ weekHours: [{ dayOfWeek: ['MONDAY'], timePeriods: { startTime: '24:00', endTime: '10:00' } }] });
    bad({
      weekHours: [{ dayOfWeek: ['MONDAY', 'MONDAY'], timePeriods: { startTime: '10:00', endTime: '11:00' } }],
    });
    bad({ weekHours: [{ dayOfWeek: ['FUNDAY'], timePeriods: { startTime: '10:00', endTime: '11:00' } }] });
    bad({ weekHours: [], holidayHours: [{ date: '2026-02-30' }] });
  });
});
