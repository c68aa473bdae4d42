import { OPEN_SITUATIONS, type PanelOverview, type PanelStore } from '@od/contracts/browser';
import { useContext, useEffect, useState } from 'preact/hooks';
import { api, storePath } from '../api.ts';
import { Banner, Ctx, fmtDate, LoadError, money, useT } from '../ui.tsx';
import { word } from '../words.ts';

/** The store's landing screen: today's orders and sales, open orders by state, integration health. */
export function Overview(props: { store: PanelStore }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [data, setData] = useState<PanelOverview | null>(null);
  const [failed, setFailed] = useState(false);
  const load = () => {
    setFailed(false);
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    api<PanelOverview>(
      'GET',
      storePath(props.store.merchantId, `/overview?since=${encodeURIComponent(midnight.toISOString())}`),
    )
      .then(setData)
      .catch(() => setFailed(true));
  };
  useEffect(load, [props.store.merchantId]);
  if (failed) return <LoadError onRetry={load} />;
  if (!data) return <p>{t('loading')}</p>;
  return (
    <div class="overview">
      <section class="card stat" aria-labelledby="ov-today">
        <h2 id="ov-today">{t('ov.today')}</h2>
        <dl class="stats">
          <div>
            <dt>{t('ov.orders')}</dt>
            <dd data-stat="orders">{data.today.orders}</dd>
          </div>
          <div>
            <dt>{t('ov.sales')}</dt>
            <dd data-stat="sales">{money(data.today.sales)}</dd>
          </div>
        </dl>
      </section>
      <section class="card stat" aria-labelledby="ov-open">
        <h2 id="ov-open">{t('ov.open')}</h2>
        <dl class="stats">
          {OPEN_SITUATIONS.filter((s) => s !== 'PENDING_PAYMENT' || data.open[s]).map((s) => (
            <div key={s}>
              <dt>{word(lang, 'situation', s)}</dt>
              <dd data-open={s}>{data.open[s] ?? 0}</dd>
            </div>
          ))}
        </dl>
      </section>
      {data.integrations && (
        <section class="card wide" aria-labelledby="ov-health">
          <h2 id="ov-health">{t('ov.health')}</h2>
          {data.integrations.length === 0 && <p>{t('cred.none')}</p>}
          <ul class="health">
            {data.integrations.map((c) => (
              <li key={c.clientId} data-client-id={c.clientId}>
                <strong>{c.name}</strong>{' '}
                <span class={`status ${c.status.toLowerCase()}`}>{word(lang, 'status', c.status)}</span>{' '}
                <span class="muted">{word(lang, 'mode', c.deliveryMode)}</span>
                {c.webhookDeactivated && <Banner kind="warn">{t('ov.deactivated')}</Banner>}
                <dl class="facts">
                  {c.deliveryMode !== 'WEBHOOK' && (
                    <>
                      <dt>{t('ov.lastPoll')}</dt>
                      <dd>{c.lastPollAt ? fmtDate(c.lastPollAt, lang) : t('ov.never')}</dd>
                    </>
                  )}
                  {c.deliveryMode !== 'POLLING' && (
                    <>
                      <dt>{t('ov.lastDelivery')}</dt>
                      <dd>{c.lastDeliveredAt ? fmtDate(c.lastDeliveredAt, lang) : t('ov.never')}</dd>
                    </>
                  )}
                  <dt>{t('ov.pending')}</dt>
                  <dd data-pending>{c.pending}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
