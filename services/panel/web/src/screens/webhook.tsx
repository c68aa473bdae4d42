import type {
  CredentialRecord,
  PanelStore,
  WebhookAttemptView,
  WebhookEndpointView,
  WebhookTestResult,
} from '@od/contracts/browser';
import { useContext, useEffect, useState } from 'preact/hooks';
import { api, errorText, fieldErrors, storePath } from '../api.ts';
import { fieldLabel } from '../i18n.ts';
import { Banner, Confirm, Ctx, Field, fmtDate, Grid, useT } from '../ui.tsx';
import { word } from '../words.ts';
import { SecretsOnce } from './secrets-once.tsx';

/** URL (saving it answers a new secret, shown once), rotation, deactivation banner, attempts, resend. */
export function Webhook(props: { store: PanelStore; credential: CredentialRecord; onChanged: () => void }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const base = storePath(props.store.merchantId, `/credentials/${props.credential.clientId}`);
  const [endpoint, setEndpoint] = useState<WebhookEndpointView | null>(null);
  const [attempts, setAttempts] = useState<WebhookAttemptView[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [rotate, setRotate] = useState(false);
  const [error, setError] = useState('');
  const [urlError, setUrlError] = useState('');
  const [ok, setOk] = useState('');
  const [test, setTest] = useState<WebhookTestResult | null>(null);
  const [testing, setTesting] = useState(false);
  const load = async () => {
    setEndpoint(await api<WebhookEndpointView>('GET', `${base}/webhook`).catch(() => null));
    setAttempts(
      (
        await api<{ items: WebhookAttemptView[] }>('GET', `${base}/webhook-attempts?limit=20`).catch(() => ({
          items: [],
        }))
      ).items,
    );
  };
  useEffect(() => {
    load();
  }, [base]);
  const run = async (fn: () => Promise<void>, done = '') => {
    setError('');
    setOk('');
    try {
      await fn();
      setOk(done);
    } catch (err) {
      setError(errorText(err, lang, t('error.generic')));
    }
    await load();
  };
  const save = (e: Event) => {
    e.preventDefault();
    const url = String(new FormData(e.currentTarget as HTMLFormElement).get('url'));
    setUrlError('');
    return run(async () => {
      try {
        const mode = props.credential.deliveryMode === 'POLLING' ? 'BOTH' : props.credential.deliveryMode;
        const r = await api<{ webhookSecret?: string }>('PATCH', base, {
          webhookUrl: url,
          deliveryMode: mode,
        });
        if (r.webhookSecret) setSecret(r.webhookSecret);
        props.onChanged();
      } catch (err) {
        const fields = fieldErrors(err, (path) => fieldLabel(t, path));
        if (fields.webhookUrl) setUrlError(fields.webhookUrl);
        else throw err;
      }
    });
  };

  return (
    <section class="card" aria-labelledby="wh-title">
      <h3 id="wh-title">{t('wh.title')}</h3>
      {error && <Banner kind="error">{error}</Banner>}
      {ok && <Banner kind="ok">{ok}</Banner>}
      {endpoint?.deactivated && (
        <Banner kind="warn">
          {t('wh.deactivated')}{' '}
          <button
            type="button"
            class="small"
            onClick={() => run(() => api('POST', `${base}/webhook-queue/clear`))}
          >
            {t('wh.clear')}
          </button>
        </Banner>
      )}
      <form class="row url-row" onSubmit={save}>
        <Field id="wh-url" label={t('cred.webhookUrl')} error={urlError}>
          <input
            id="wh-url"
            name="url"
            type="url"
            required
            defaultValue={props.credential.webhookUrl ?? ''}
            key={props.credential.webhookUrl}
          />
        </Field>
        <button type="submit" class="primary">
          {t('wh.save')}
        </button>
        {props.credential.webhookUrl && (
          <button type="button" onClick={() => setRotate(true)}>
            {t('wh.rotate')}
          </button>
        )}
      </form>
      {endpoint && (
        <p class="muted">
          {t('wh.pending')}: {endpoint.pending}
        </p>
      )}
      {props.credential.webhookUrl && (
        <div class="row">
          <button
            type="button"
            disabled={testing}
            onClick={async () => {
              setTesting(true);
              setTest(null);
              await run(async () => setTest(await api<WebhookTestResult>('POST', `${base}/webhook-test`)));
              setTesting(false);
            }}
          >
            {t('wh.test')}
          </button>
        </div>
      )}
      {test && (
        <section
          class="test-result"
          aria-labelledby="wh-test-title"
          data-success={test.success ? 'yes' : 'no'}
        >
          <h4 id="wh-test-title">{t('wh.testResult')}</h4>
          <Banner kind={test.success ? 'ok' : 'error'}>
            {t('wh.testSent')} {t('wh.status')}: {test.statusCode ?? '—'} · {test.durationMs} ms
            {test.error ? ` · ${test.error}` : ''}
          </Banner>
          {test.responseBody && (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be keyboard-reachable
            <pre class="payload" tabIndex={0}>
              {test.responseBody}
            </pre>
          )}
        </section>
      )}
      <h4>{t('wh.attempts')}</h4>
      {attempts.length === 0 ? (
        <p>{t('wh.noAttempts')}</p>
      ) : (
        <Grid
          label={t('wh.attempts')}
          columns={['wh.when', 'wh.event', 'wh.status', 'wh.duration', 'wh.error']}
          actions={t('wh.resend')}
        >
          {attempts.map((a) => (
            <tr key={a.id} class="attempt">
              <td data-label={t('wh.when')}>{fmtDate(a.startedAt, lang)}</td>
              <td data-label={t('wh.event')}>{word(lang, 'event', a.eventType)}</td>
              <td data-label={t('wh.status')}>
                <span class={`status ${a.success ? 'active' : 'revoked'}`}>{a.statusCode ?? '—'}</span>
              </td>
              <td data-label={t('wh.duration')}>{a.durationMs} ms</td>
              <td data-label={t('wh.error')}>{a.error ?? '—'}</td>
              <td>
                <button
                  type="button"
                  class="small"
                  onClick={() => run(() => api('POST', `${base}/events/${a.eventId}/resend`), t('wh.resent'))}
                >
                  {t('wh.resend')}
                </button>
              </td>
            </tr>
          ))}
        </Grid>
      )}
      {secret && (
        <SecretsOnce
          title={t('wh.newSecret')}
          secrets={[{ id: 'wh-secret', label: t('cred.webhookSecret'), value: secret }]}
          onClose={() => setSecret(null)}
        />
      )}
      {rotate && (
        <Confirm
          title={t('wh.rotate')}
          confirmLabel={t('wh.rotate')}
          cancelLabel={t('cred.keep')}
          message={t('wh.rotateConfirm')}
          onCancel={() => setRotate(false)}
          onConfirm={() => {
            setRotate(false);
            run(async () => {
              const r = await api<{ webhookSecret: string }>('POST', `${base}/webhook-secret`);
              setSecret(r.webhookSecret);
            });
          }}
        />
      )}
    </section>
  );
}
