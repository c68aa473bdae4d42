import { PANEL_PASSWORD_MAX, PANEL_PASSWORD_MIN, type PanelMe } from '@od/contracts/browser';
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.ts';
import { Banner, Field, useT } from '../ui.tsx';

export function SignIn(props: { onSignedIn: (me: PanelMe) => void }) {
  const t = useT();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError('');
    try {
      props.onSignedIn(
        await api<PanelMe>('POST', '/session', { email: form.get('email'), password: form.get('password') }),
      );
    } catch (err) {
      setError(err instanceof ApiError && err.status === 429 ? t('signin.limited') : t('signin.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card narrow" onSubmit={submit}>
      {error && <Banner kind="error">{error}</Banner>}
      <Field id="email" label={t('signin.email')}>
        <input id="email" name="email" type="email" autocomplete="username" required />
      </Field>
      <Field id="password" label={t('signin.password')}>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
      </Field>
      <button type="submit" class="primary" disabled={busy}>
        {t('signin.submit')}
      </button>
    </form>
  );
}

/** Invite link: /panel/setup#token=... (the token stays out of server logs: it is a fragment). */
export function Setup() {
  const t = useT();
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(token ? 'form' : 'invalid');
  const [error, setError] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const password = String(form.get('password'));
    if (password !== form.get('confirm')) return setError(t('setup.mismatch'));
    try {
      await api('POST', '/password-setup', { token, password });
      setState('done');
    } catch (err) {
      if (err instanceof ApiError && err.body?.error === 'validation_error') setError(err.body.message ?? '');
      else setState('invalid');
    }
  };
  if (state === 'done')
    return (
      <Banner kind="ok">
        {t('setup.done')} <a href="/panel/">{t('signin.submit')}</a>
      </Banner>
    );
  if (state === 'invalid') return <Banner kind="error">{t('setup.invalid')}</Banner>;
  return (
    <form class="card narrow" onSubmit={submit}>
      <p>
        {t('setup.hint')
          .replace('{min}', String(PANEL_PASSWORD_MIN))
          .replace('{max}', String(PANEL_PASSWORD_MAX))}
      </p>
      <Field id="password" label={t('signin.password')} error={error}>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minLength={PANEL_PASSWORD_MIN}
          maxLength={PANEL_PASSWORD_MAX}
          required
        />
      </Field>
      <Field id="confirm" label={t('setup.confirm')}>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" required />
      </Field>
      <button type="submit" class="primary">
        {t('setup.submit')}
      </button>
    </form>
  );
}
