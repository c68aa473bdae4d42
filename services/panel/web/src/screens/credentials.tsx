import { useContext, useEffect, useState } from 'preact/hooks';
import { api, fieldErrors as apiFieldErrors, errorText, type Store, storePath } from '../api.ts';
import { fieldLabel } from '../i18n.ts';
import { Banner, Confirm, Ctx, Dialog, Field, fmtDate, Grid, Secret, SmallButton, useT } from '../ui.tsx';
import { word } from '../words.ts';
import { Events } from './events.tsx';
import { Webhook } from './webhook.tsx';

export interface Credential {
  clientId: string;
  name: string;
  scopes: string[];
  status: 'ACTIVE' | 'PAUSED' | 'REVOKED';
  deliveryMode: 'POLLING' | 'WEBHOOK' | 'BOTH';
  webhookUrl: string | null;
  includeMarketplaceOrders: boolean;
  apiProfile?: string;
  createdAt: string;
}
interface Created extends Credential {
  clientSecret: string;
  webhookSecret: string | null;
}

const SCOPES = ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'];
const MODES = ['POLLING', 'WEBHOOK', 'BOTH'];

function CreateForm(props: { store: Store; onCreated: (c: Created) => void }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [mode, setMode] = useState('POLLING');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    try {
      const c = await api<Created>('POST', storePath(props.store.merchantId, '/credentials'), {
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
      props.onCreated(c);
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
        {SCOPES.map((s) => (
          <label key={s} class="check">
            <input type="checkbox" name="scopes" value={s} defaultChecked={s === 'orders:read'} /> {s}
          </label>
        ))}
        {errors.scopes && <p class="error">{errors.scopes}</p>}
      </fieldset>
      <Field id="cred-mode" label={t('cred.mode')}>
        <select id="cred-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
          {MODES.map((m) => (
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
          <option value="SPEC">SPEC</option>
          <option value="OPEN_DELIVERY">Open Delivery 1.4.0</option>
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

export function SecretsOnce(props: {
  secrets: { label: string; value: string; id: string }[];
  onClose: () => void;
  title?: string;
}) {
  const t = useT();
  return (
    <Dialog title={props.title ?? t('cred.secretsTitle')}>
      <Banner kind="warn">{t('cred.secretsWarning')}</Banner>
      {props.secrets.map((s) => (
        <Secret key={s.id} {...s} />
      ))}
      <div class="row end">
        <button type="button" class="primary" onClick={props.onClose}>
          {t('cred.close')}
        </button>
      </div>
    </Dialog>
  );
}

export function Credentials(props: { store: Store }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [list, setList] = useState<Credential[] | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [confirm, setConfirm] = useState<{ c: Credential; action: 'pause' | 'revoke' } | null>(null);
  const [renaming, setRenaming] = useState<Credential | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState('');
  const base = (c: Credential) => storePath(props.store.merchantId, `/credentials/${c.clientId}`);
  const load = () =>
    api<Credential[]>('GET', storePath(props.store.merchantId, '/credentials'))
      .then(setList)
      .catch(() => setError(t('error.generic')));
  useEffect(() => {
    load();
  }, [props.store.merchantId]);
  const act = async (c: Credential, action: string, body?: unknown) => {
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
              <td data-label={t('cred.scopes')}>{c.scopes.join(', ')}</td>
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
        onCreated={(c) => {
          setCreated(c);
          load();
        }}
      />
      {created && (
        <SecretsOnce
          onClose={() => setCreated(null)}
          secrets={[
            { id: 'new-client-id', label: t('cred.clientId'), value: created.clientId },
            { id: 'new-client-secret', label: t('cred.clientSecret'), value: created.clientSecret },
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
