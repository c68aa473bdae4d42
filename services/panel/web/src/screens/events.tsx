import { useContext, useEffect, useState } from 'preact/hooks';
import { api, type Store, storePath } from '../api.ts';
import { Choice, Ctx, fmtDate, Grid, useT } from '../ui.tsx';
import type { Credential } from './credentials.tsx';

interface Entry {
  seq: number;
  eventId: string;
  eventType: string;
  orderId: string;
  createdAt: string;
  acknowledged: boolean;
}
const TYPES = [
  '',
  'CREATED',
  'CONFIRMED',
  'PREPARING',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'CONCLUDED',
  'CANCELLED',
  'MODIFIED',
];

/** The credential's feed: pending or acknowledged, type filter, `before` paging, link to the order. */
export function Events(props: { store: Store; credential: Credential }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [state, setState] = useState('all');
  const [type, setType] = useState('');
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const [page, setPage] = useState<{ items: Entry[]; nextBefore: number | null } | null>(null);
  const before = pages[pages.length - 1];
  useEffect(() => {
    const q = new URLSearchParams({
      state,
      limit: '20',
      ...(before ? { before: String(before) } : {}),
      ...(type ? { eventType: type } : {}),
    });
    api<{ items: Entry[]; nextBefore: number | null }>(
      'GET',
      storePath(props.store.merchantId, `/credentials/${props.credential.clientId}/events?${q}`),
    )
      .then(setPage)
      .catch(() => setPage({ items: [], nextBefore: null }));
  }, [state, type, before, props.credential.clientId]);
  const reset = () => setPages([null]);

  return (
    <section class="card" aria-labelledby="ev-title">
      <h3 id="ev-title">{t('ev.title')}</h3>
      <div class="row">
        <Choice
          label={t('ev.state')}
          value={state}
          options={[
            ['all', t('ev.all')],
            ['pending', t('ev.pending')],
            ['acknowledged', t('ev.acknowledged')],
          ]}
          onValue={(v) => {
            setState(v);
            reset();
          }}
        />
        <Choice
          label={t('ev.type')}
          value={type}
          options={TYPES.map((x) => [x, x || t('ev.all')])}
          onValue={setType}
        />
      </div>
      {!page || page.items.length === 0 ? (
        <p>{t('ev.none')}</p>
      ) : (
        <Grid label={t('ev.title')} columns={['wh.when', 'ev.type', 'ev.order', 'ev.state']}>
          {page.items.map((e) => (
            <tr key={e.seq}>
              <td>{fmtDate(e.createdAt, lang)}</td>
              <td>{e.eventType}</td>
              <td>
                <a href={`/panel/s/${props.store.merchantId}/orders?order=${e.orderId}`} class="mono">
                  {e.orderId.slice(0, 8)}
                </a>
              </td>
              <td>{e.acknowledged ? t('ev.acknowledged') : t('ev.pending')}</td>
            </tr>
          ))}
        </Grid>
      )}
      <div class="row">
        {pages.length > 1 && (
          <button type="button" class="small" onClick={() => setPages(pages.slice(0, -1))}>
            ←
          </button>
        )}
        {page?.nextBefore && (
          <button type="button" class="small" onClick={() => setPages([...pages, page.nextBefore])}>
            {t('ev.more')}
          </button>
        )}
      </div>
    </section>
  );
}
