import {
  API_PROFILES,
  type CreatedCredential,
  type CredentialRecord,
  DEFAULT_SCOPES,
  DELIVERY_MODES,
  type DeliveryMode,
  PANEL_SCOPES,
  type PanelStore,
} from '@od/contracts/browser';
import { useContext, useEffect, useState } from 'preact/hooks';
import { api, fieldErrors as apiFieldErrors, errorText, storePath } from '../api.ts';
import { fieldLabel, type Key, type T } from '../i18n.ts';
import { Banner, Confirm, Ctx, Dialog, Field, fmtDate, Grid, SmallButton, useT } from '../ui.tsx';
import { word } from '../words.ts';
import { Events } from './events.tsx';
import { SecretsOnce } from './secrets-once.tsx';
import { Webhook } from './webhook.tsx';

/** A scope in the merchant's words (PANEL_SCOPES' label); an unknown one as is. */
const scopeLabel = (t: T, scope: string) => {
  const s = PANEL_SCOPES.find((x) => x.scope === scope);
  return s ? t(s.labelKey as Key) : scope;
};

function CreateForm(props: { store: PanelStore; onCreatedCredential: (c: CreatedCredential) => void }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [mode, setMode] = useState<DeliveryMode>('POLLING');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    try {
      const c = await api<CreatedCredential>('POST', storePath(props.store.merchantId, '/credentials'), {
        name: f.get('name'),
        scopes: f.getAll('scopes'),
        deliveryMode: mode,
        webhookUrl: mode === 'POLLING' ? null : f.get('webhookUrl'),
        includeMarketplaceOrders: f.get('marketplace') === 'on',
        apiProfile: f.get('apiProfile'),
      });
      setErrors({});
      (e.target as HTMLFormElement).reset();
      setMode('POLLING');
      props.onCreatedCredential(c);
    } catch (err) {
      const fields = apiFieldErrors(err, (path) => fieldLabel(t, path));
      const general = Object.keys(fields).length
        ? t('error.fields')
        : errorText(err, lang, t('error.generic'));
      setErrors({ ...fields, _: general });
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-cred">
      <h2 id="new-cred">{t('cred.new')}</h2>
      {errors._ && <Banner kind="error">{errors._}</Banner>}
      <Field id="cred-name" label={t('cred.name')} error={errors.name}>
        <input id="cred-name" name="name" required maxLength={100} />
      </Field>
      <fieldset class={errors.scopes ? 'invalid' : ''}>
        <legend>{t('cred.scopes')}</legend>
        {PANEL_SCOPES.map((s) => (
          <label key={s.scope} class="check">
            <input
              type="checkbox"
              name="scopes"
              value={s.scope}
              defaultChecked={DEFAULT_SCOPES.includes(s.scope)}
            />{' '}
            {t(s.labelKey as Key)} <span class="muted mono">{s.scope}</span>
            {s.storeWrite && <span class="hint"> — {t('scope.storeWriteHint')}</span>}
          </label>
        ))}
        {errors.scopes && <p class="error">{errors.scopes}</p>}
      </fieldset>
      <Field id="cred-mode" label={t('cred.mode')}>
        <select id="cred-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as DeliveryMode)}>
          {DELIVERY_MODES.map((m) => (
            <option key={m} value={m}>
              {word(lang, 'mode', m)}
            </option>
          ))}
        </select>
      </Field>
      {mode !== 'POLLING' && (
        <Field id="cred-url" label={t('cred.webhookUrl')} error={errors.webhookUrl}>
          <input id="cred-url" name="webhookUrl" type="url" required />
        </Field>
      )}
      <Field id="cred-profile" label={t('cred.profile')}>
        <select id="cred-profile" name="apiProfile">
          {API_PROFILES.map((p) => (
            <option key={p} value={p}>
              {word(lang, 'profile', p)}
            </option>
          ))}
        </select>
      </Field>
      <label class="check">
        <input type="checkbox" name="marketplace" /> {t('cred.marketplace')}
      </label>
      <button type="submit" class="primary">
        {t('cred.create')}
      </button>
    </form>
  );
}

export function Credentials(props: { store: PanelStore }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [list, setList] = useState<CredentialRecord[] | null>(null);
  const [created, setCreatedCredential] = useState<CreatedCredential | null>(null);
  const [confirm, setConfirm] = useState<{ c: CredentialRecord; action: 'pause' | 'revoke' } | null>(null);
  const [renaming, setRenaming] = useState<CredentialRecord | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState('');
  const base = (c: CredentialRecord) => storePath(props.store.merchantId, `/credentials/${c.clientId}`);
  const load = () =>
    api<CredentialRecord[]>('GET', storePath(props.store.merchantId, '/credentials'))
      .then(setList)
      .catch(() => setError(t('error.generic')));
  useEffect(() => {
    load();
  }, [props.store.merchantId]);
  const act = async (c: CredentialRecord, action: string, body?: unknown) => {
    setError('');
    try {
      await api(body ? 'PATCH' : 'POST', body ? base(c) : `${base(c)}/${action}`, body);
    } catch (err) {
      setError(errorText(err, lang, t('error.generic')));
    }
    await load();
  };
  const current = list?.find((c) => c.clientId === selected);

  return (
    <section>
      {error && <Banner kind="error">{error}</Banner>}
      <h2>{t('cred.title')}</h2>
      {list === null ? (
        <p>{t('loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('cred.none')}</p>
      ) : (
        <Grid
          columns={[
            'cred.name',
            'cred.clientId',
            'cred.status',
            'cred.scopes',
            'cred.mode',
            'cred.marketplace',
          ]}
          actions={t('cred.details')}
        >
          {list.map((c) => (
            <tr key={c.clientId} data-client-id={c.clientId}>
              <td data-label={t('cred.name')}>{c.name}</td>
              <td data-label={t('cred.clientId')} class="mono">
                {c.clientId}
              </td>
              <td data-label={t('cred.status')}>
                <span class={`status ${c.status.toLowerCase()}`} data-status={c.status}>
                  {word(lang, 'status', c.status)}
                </span>
              </td>
              <td data-label={t('cred.scopes')}>{c.scopes.map((x) => scopeLabel(t, x)).join(', ')}</td>
              <td data-label={t('cred.mode')}>
                {word(lang, 'mode', c.deliveryMode)}
                {c.apiProfile === 'OPEN_DELIVERY' ? ' · Open Delivery' : ''}
              </td>
              <td data-label={t('cred.marketplace')}>
                {c.includeMarketplaceOrders ? t('cred.yes') : t('cred.no')}
              </td>
              <td class="actions">
                {c.status !== 'REVOKED' && (
                  <>
                    <SmallButton onClick={() => setSelected(c.clientId === selected ? null : c.clientId)}>
                      {t('cred.details')}
                    </SmallButton>
                    <SmallButton onClick={() => setRenaming(c)}>{t('cred.rename')}</SmallButton>
                    {c.status === 'ACTIVE' ? (
                      <SmallButton onClick={() => setConfirm({ c, action: 'pause' })}>
                        {t('cred.pause')}
                      </SmallButton>
                    ) : (
                      <SmallButton onClick={() => act(c, 'resume')}>{t('cred.resume')}</SmallButton>
                    )}
                    <SmallButton danger onClick={() => setConfirm({ c, action: 'revoke' })}>
                      {t('cred.revoke')}
                    </SmallButton>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Grid>
      )}
      {current && (
        <section class="details" aria-label={current.name}>
          <p class="muted">
            {current.name} · {fmtDate(current.createdAt, lang)}
          </p>
          <Webhook store={props.store} credential={current} onChanged={load} />
          <Events store={props.store} credential={current} />
        </section>
      )}
      <CreateForm
        store={props.store}
        onCreatedCredential={(c) => {
          setCreatedCredential(c);
          load();
        }}
      />
      {created && (
        <SecretsOnce
          onClose={() => setCreatedCredential(null)}
          secrets={[
            { id: 'new-client-id', label: t('cred.clientId'), value: created.clientId },
            { id: 'new-client-secret', label: t('cred.clientSecret'), value: created.clientSecret ?? '' },
            ...(created.webhookSecret
              ? [{ id: 'new-webhook-secret', label: t('cred.webhookSecret'), value: created.webhookSecret }]
              : []),
          ]}
        />
      )}
      {confirm && (
        <Confirm
          title={t(confirm.action === 'pause' ? 'cred.pause' : 'cred.revoke')}
          confirmLabel={t(confirm.action === 'pause' ? 'cred.pause' : 'cred.revoke')}
          cancelLabel={t('cred.keep')}
          message={t(confirm.action === 'pause' ? 'cred.pauseConfirm' : 'cred.revokeConfirm')}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const { c, action } = confirm;
            setConfirm(null);
            act(c, action);
          }}
        />
      )}
      {renaming && (
        <Dialog title={t('cred.rename')} onClose={() => setRenaming(null)}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const name = String(new FormData(e.currentTarget).get('name'));
              const c = renaming;
              setRenaming(null);
              act(c, 'rename', { name });
            }}
          >
            <Field id="rename" label={t('cred.name')}>
              <input id="rename" name="name" defaultValue={renaming.name} required maxLength={100} />
            </Field>
            <div class="row end">
              <button type="button" onClick={() => setRenaming(null)}>
                {t('cancel')}
              </button>
              <button type="submit" class="primary">
                {t('save')}
              </button>
            </div>
          </form>
        </Dialog>
      )}
    </section>
  );
}
