import { type AdminMerchant, DAYS_OF_WEEK, type ServiceHours, type TimePeriods } from '@od/contracts/browser';
import { useContext, useState } from 'preact/hooks';
import { api, errorText, fieldErrors } from '../api.ts';
import { fieldLabel, type Key, type Lang } from '../i18n.ts';
import { Banner, Ctx, Field, useT } from '../ui.tsx';
import { word } from '../words.ts';

/** The store's day as the admin view shows it (catalog's admin.merchant.get). */
export type StoreDayView = AdminMerchant;
const PAUSES = [15, 30, 60];

type Props<T> = { view: T; path: string; onSaved: (v: T) => void };

function useSave<T>(p: Props<T>) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const save = async (body: unknown, ok: Key) => {
    try {
      p.onSaved(await api<T>('PATCH', p.path, body));
      setMsg({ kind: 'ok', text: t(ok) });
    } catch (err) {
      // the refusal in the merchant's words, each field named as the screen names it
      const fields = Object.entries(fieldErrors(err, (path) => fieldLabel(t, path))).map(([field, text]) => {
        const label = fieldLabel(t, field);
        return text.startsWith(label) ? text : `${label}: ${text}`;
      });
      const text = fields.length ? fields.join(' ') : errorText(err, lang, t('error.generic'));
      setMsg({ kind: 'error', text });
    }
  };
  return { msg, save };
}

const time = (iso: string, lang: Lang) =>
  new Date(iso).toLocaleTimeString(lang === 'en' ? 'en-GB' : 'pt-BR', { hour: '2-digit', minute: '2-digit' });

/** The big open/closed switch, what intake does right now, and the timed pauses. */
export function OpenSwitch(p: Props<StoreDayView>) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const { msg, save } = useSave(p);
  const [reason, setReason] = useState('');
  const v = p.view;
  const on = v.switchStatus === 'AVAILABLE';
  const paused = v.pausedUntil !== null && Date.parse(v.pausedUntil) > Date.now();
  return (
    <section class="card" aria-labelledby="day-title">
      <h2 id="day-title">{t('day.title')}</h2>
      {msg && <Banner kind={msg.kind}>{msg.text}</Banner>}
      <button
        type="button"
        role="switch"
        aria-checked={on}
        class={`big-switch ${on ? (paused ? 'paused' : 'on') : 'off'}`}
        onClick={() =>
          save({ status: on ? 'UNAVAILABLE' : 'AVAILABLE' }, on ? 'day.closedNow' : 'day.openedNow')
        }
      >
        {on
          ? paused
            ? `${t('day.openPaused')} ${time(v.pausedUntil as string, lang)}`
            : t('day.open')
          : t('day.closed')}
      </button>
      <p class="hint">{on ? t('day.switchOffHint') : t('day.switchOnHint')}</p>
      <ul class="open-now">
        {v.openNow.map((s) => (
          <li key={s.serviceType}>
            {word(lang, 'service', s.serviceType)}:{' '}
            {s.open ? t('day.taking') : t(`day.reason.${s.reason}` as Key)}
          </li>
        ))}
      </ul>
      {paused ? (
        <div class="row">
          <Banner kind="warn">
            {t('day.pausedUntil')} {time(v.pausedUntil as string, lang)} ({v.pauseReason})
          </Banner>
          <button type="button" class="primary" onClick={() => save({ pause: null }, 'day.resumed')}>
            {t('day.resume')}
          </button>
        </div>
      ) : (
        <div class="row">
          <Field id="day-reason" label={t('day.pauseReason')}>
            <input
              id="day-reason"
              value={reason}
              maxLength={200}
              onInput={(e) => setReason(e.currentTarget.value)}
              placeholder={t('day.pauseReasonHint')}
            />
          </Field>
          {PAUSES.map((m) => (
            <button
              key={m}
              type="button"
              disabled={!reason.trim()}
              onClick={() => save({ pause: { minutes: m, reason: reason.trim() } }, 'day.pausedNow')}
            >
              {t('day.pauseFor')} {m} min
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

const emptyHours = (): ServiceHours => ({
  weekHours: [{ dayOfWeek: [...DAYS_OF_WEEK], timePeriods: { startTime: '11:00', endTime: '23:00' } }],
  holidayHours: [],
});

/** Weekly opening hours with special days, in the store's time zone; no hours = always open. */
export function HoursEditor(p: Props<StoreDayView>) {
  const t = useT();
  const { msg, save } = useSave(p);
  const [h, setH] = useState<ServiceHours | null>(p.view.serviceHours);
  const [zone, setZone] = useState(p.view.timeZone);
  const set = (fn: (x: ServiceHours) => void) => {
    if (!h) return;
    const next = structuredClone(h);
    fn(next);
    setH(next);
  };
  return (
    <section class="card" aria-labelledby="hours-title">
      <h2 id="hours-title">{t('hours.title')}</h2>
      {msg && <Banner kind={msg.kind}>{msg.text}</Banner>}
      <Field id="hours-zone" label={t('hours.zone')}>
        <input id="hours-zone" value={zone} onInput={(e) => setZone(e.currentTarget.value)} />
      </Field>
      {!h ? (
        <div class="row">
          <p>{t('hours.none')}</p>
          <button type="button" onClick={() => setH(emptyHours())}>
            {t('hours.define')}
          </button>
        </div>
      ) : (
        <>
          <p class="hint">{t('hours.hint')}</p>
          {h.weekHours.map((w, i) => (
            <fieldset key={i}>
              <legend>
                {t('hours.period')} {i + 1}
              </legend>
              {DAYS_OF_WEEK.map((d) => (
                <label class="check" key={d}>
                  <input
                    type="checkbox"
                    checked={w.dayOfWeek.includes(d)}
                    onChange={(e) =>
                      set((x) => {
                        const days = x.weekHours[i].dayOfWeek.filter((y) => y !== d);
                        x.weekHours[i].dayOfWeek = e.currentTarget.checked
                          ? DAYS_OF_WEEK.filter((y) => days.includes(y) || y === d)
                          : days;
                      })
                    }
                  />
                  {t(`day.${d}` as Key)}
                </label>
              ))}
              <div class="row">
                <PeriodInputs
                  id={`wk-${i}`}
                  value={w.timePeriods}
                  onChange={(v) => set((x) => (x.weekHours[i].timePeriods = v))}
                />
                <button
                  type="button"
                  class="danger small"
                  onClick={() => set((x) => x.weekHours.splice(i, 1))}
                >
                  {t('hours.remove')}
                </button>
              </div>
            </fieldset>
          ))}
          <button
            type="button"
            onClick={() =>
              set((x) =>
                x.weekHours.push({ dayOfWeek: [], timePeriods: { startTime: '18:00', endTime: '23:00' } }),
              )
            }
          >
            {t('hours.addPeriod')}
          </button>
          <h3>{t('hours.special')}</h3>
          {h.holidayHours.map((s, i) => (
            <div class="row" key={i}>
              <Field id={`sp-date-${i}`} label={t('hours.date')}>
                <input
                  id={`sp-date-${i}`}
                  type="date"
                  value={s.date}
                  onInput={(e) => set((x) => (x.holidayHours[i].date = e.currentTarget.value))}
                />
              </Field>
              <label class="check">
                <input
                  type="checkbox"
                  checked={!s.timePeriods}
                  onChange={(e) =>
                    set((x) => {
                      x.holidayHours[i].timePeriods = e.currentTarget.checked
                        ? undefined
                        : { startTime: '11:00', endTime: '16:00' };
                    })
                  }
                />
                {t('hours.closedAllDay')}
              </label>
              {s.timePeriods && (
                <PeriodInputs
                  id={`sp-${i}`}
                  value={s.timePeriods}
                  onChange={(v) => set((x) => (x.holidayHours[i].timePeriods = v))}
                />
              )}
              <button
                type="button"
                class="danger small"
                onClick={() => set((x) => x.holidayHours.splice(i, 1))}
              >
                {t('hours.remove')}
              </button>
            </div>
          ))}
          <div class="row">
            <button
              type="button"
              onClick={() => set((x) => x.holidayHours.push({ date: new Date().toISOString().slice(0, 10) }))}
            >
              {t('hours.addSpecial')}
            </button>
            <button type="button" class="link" onClick={() => setH(null)}>
              {t('hours.clear')}
            </button>
          </div>
        </>
      )}
      <div class="row end">
        <button
          type="button"
          class="primary"
          onClick={() =>
            save(
              {
                timeZone: zone.trim(),
                serviceHours: h && { ...h, weekHours: h.weekHours.filter((w) => w.dayOfWeek.length) },
              },
              'hours.saved',
            )
          }
        >
          {t('hours.save')}
        </button>
      </div>
    </section>
  );
}

function PeriodInputs(p: { id: string; value: TimePeriods; onChange: (v: TimePeriods) => void }) {
  const t = useT();
  return (
    <>
      <Field id={`${p.id}-from`} label={t('hours.from')}>
        <input
          id={`${p.id}-from`}
          type="time"
          value={p.value.startTime}
          onInput={(e) => p.onChange({ ...p.value, startTime: e.currentTarget.value })}
        />
      </Field>
      <Field id={`${p.id}-to`} label={t('hours.to')}>
        <input
          id={`${p.id}-to`}
          type="time"
          value={p.value.endTime}
          onInput={(e) => p.onChange({ ...p.value, endTime: e.currentTarget.value })}
        />
      </Field>
    </>
  );
}

/** How long a new order may wait for a confirmation before the platform cancels it. */
export function ConfirmationTimeout(p: Props<StoreDayView>) {
  const t = useT();
  const { msg, save } = useSave(p);
  const [minutes, setMinutes] = useState(String(p.view.confirmationTimeoutSeconds / 60));
  return (
    <section class="card" aria-labelledby="timeout-title">
      <h2 id="timeout-title">{t('timeout.title')}</h2>
      {msg && <Banner kind={msg.kind}>{msg.text}</Banner>}
      <p class="hint">{t('timeout.hint')}</p>
      <div class="row">
        <Field id="timeout-min" label={t('timeout.minutes')}>
          <input
            id="timeout-min"
            type="number"
            min={0.5}
            step={0.5}
            value={minutes}
            onInput={(e) => setMinutes(e.currentTarget.value)}
          />
        </Field>
        <button
          type="button"
          class="primary"
          onClick={() =>
            save({ confirmationTimeoutSeconds: Math.round(Number(minutes) * 60) }, 'timeout.saved')
          }
        >
          {t('timeout.save')}
        </button>
      </div>
    </section>
  );
}
