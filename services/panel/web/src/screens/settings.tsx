import type { PanelStore } from '@od/contracts/browser';
import { useContext, useEffect, useState } from 'preact/hooks';
import { api, errorText, fieldErrors, storePath } from '../api.ts';
import { fieldLabel } from '../i18n.ts';
import { Banner, Ctx, Field, LoadError, useT } from '../ui.tsx';
import { ConfirmationTimeout, HoursEditor, OpenSwitch, type StoreDayView } from './store-day.tsx';

type Merchant = StoreDayView;
const list = (v: FormDataEntryValue | null) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function Settings(props: { store: PanelStore }) {
  const t = useT();
  const [m, setM] = useState<Merchant | null>(null);
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const { lang } = useContext(Ctx);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const path = storePath(props.store.merchantId);
  const [failed, setFailed] = useState(false);
  const load = () => {
    setFailed(false);
    api<Merchant>('GET', path)
      .then(setM)
      .catch(() => setFailed(true));
  };
  useEffect(load, [path]);
  if (failed) return <LoadError onRetry={load} />;
  if (!m) return <p>{t('loading')}</p>;
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    try {
      setM(
        await api<Merchant>('PATCH', path, {
          name: f.get('name'),
          description: f.get('description'),
          contactEmails: list(f.get('emails')),
          contactPhones: list(f.get('phones')),
        }),
      );
      setErrors({});
      setMsg({ kind: 'ok', text: t('settings.saved') });
    } catch (err) {
      const fields = fieldErrors(err, (p) => fieldLabel(t, p));
      setErrors(fields);
      const general = Object.keys(fields).length
        ? t('error.fields')
        : errorText(err, lang, t('error.generic'));
      setMsg({ kind: 'error', text: general });
    }
  };
  const err = (k: string): string | undefined => errors[k];
  const day = { view: m, path, onSaved: (v: StoreDayView) => setM(v as Merchant) };
  return (
    <>
      <OpenSwitch {...day} />
      <DetailsForm m={m} submit={submit} msg={msg} err={err} />
      <HoursEditor {...day} />
      <ConfirmationTimeout {...day} />
    </>
  );
}

function DetailsForm(props: {
  m: Merchant;
  submit: (e: Event) => void;
  msg: { kind: 'ok' | 'error'; text: string } | null;
  err: (k: string) => string | undefined;
}) {
  const t = useT();
  const { m, submit, msg, err } = props;
  return (
    <form class="card" onSubmit={submit}>
      <h2>{t('settings.title')}</h2>
      {msg && <Banner kind={msg.kind}>{msg.text}</Banner>}
      <Field id="st-name" label={t('settings.name')} error={err('name')}>
        <input id="st-name" name="name" defaultValue={m.name} required />
      </Field>
      <Field id="st-desc" label={t('settings.description')} error={err('description')}>
        <textarea id="st-desc" name="description" defaultValue={m.description} rows={3} />
      </Field>
      <Field id="st-emails" label={t('settings.emails')} error={err('contactEmails')}>
        <input id="st-emails" name="emails" defaultValue={m.contactEmails.join(', ')} />
      </Field>
      <Field id="st-phones" label={t('settings.phones')} error={err('contactPhones')}>
        <input id="st-phones" name="phones" defaultValue={m.contactPhones.join(', ')} />
      </Field>
      <button type="submit" class="primary">
        {t('save')}
      </button>
    </form>
  );
}
