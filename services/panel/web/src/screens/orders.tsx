import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Store, storePath } from '../api.ts';
import type { Key } from '../i18n.ts';
import { Banner, Confirm, Ctx, Dialog, Field, fmtDate, money, useT } from '../ui.tsx';

interface Card {
  id: string;
  displayId: string;
  type: string | null;
  situation: string;
  createdAt: string | null;
  customerName: string | null;
  total: number | null;
}
interface Detail extends Card {
  card: Card;
  history: {
    trigger: string;
    from: string | null;
    to: string;
    actorKind: string;
    eventType: string | null;
    detail: unknown;
    createdAt: string;
  }[];
}

const COLUMNS: { key: Key; situations: string[] }[] = [
  { key: 'col.new', situations: ['PENDING_PAYMENT', 'PENDING'] },
  { key: 'col.accepted', situations: ['ACCEPTED'] },
  { key: 'col.preparing', situations: ['PREPARING'] },
  { key: 'col.ready', situations: ['READY'] },
  { key: 'col.delivery', situations: ['DELIVERY'] },
  { key: 'col.done', situations: ['DONE', 'CANCELLED'] },
];

/** The next step offered on a card (the server checks every rule: a refused step shows its message). */
function nextActions(o: Card): string[] {
  switch (o.situation) {
    case 'PENDING':
      return ['confirm'];
    case 'ACCEPTED':
      return ['startPreparation'];
    case 'PREPARING':
      return ['readyForPickup'];
    case 'READY':
      return o.type === 'DELIVERY' ? ['dispatch'] : ['pickedUp'];
    case 'DELIVERY':
      return ['delivered'];
    default:
      return [];
  }
}
const final = (s: string) => s === 'DONE' || s === 'CANCELLED';

export function Orders(props: { store: Store }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [orders, setOrders] = useState<Map<string, Card>>(new Map());
  const [live, setLive] = useState(false);
  const [error, setError] = useState('');
  const [detail, setDetail] = useState<Detail | null>(null);
  const openId = useRef<string | null>(null);
  openId.current = detail?.id ?? null;
  const [cancelling, setCancelling] = useState<Card | null>(null);
  const base = storePath(props.store.merchantId);
  const upsert = (c: Card) => setOrders((m) => new Map(m).set(c.id, c));
  const refresh = async (id: string) => {
    const d = await api<Detail>('GET', `${base}/orders/${id}`).catch(() => null);
    if (!d) return;
    upsert(d.card);
    setDetail((cur) => (cur?.id === id ? { ...d, ...d.card } : cur));
  };
  const loadAll = () =>
    api<{ orders: Card[] }>('GET', `${base}/orders`)
      .then((r) => setOrders(new Map(r.orders.map((o) => [o.id, o]))))
      .catch(() => setError(t('error.generic')));

  useEffect(() => {
    loadAll();
    const es = new EventSource(`/panel/api${base}/orders-stream`);
    es.onopen = () => {
      setLive(true);
      loadAll(); // events missed while disconnected
    };
    es.onerror = () => setLive(false);
    es.addEventListener('order', (e) => {
      const { orderId, card } = JSON.parse((e as MessageEvent).data) as {
        orderId: string;
        card: Card | null;
      };
      if (card) upsert(card);
      // an open detail (history) is read again; a card the panel could not read is fetched here
      if (!card || openId.current === orderId) void refresh(orderId);
    });
    const wanted = new URLSearchParams(location.search).get('order');
    if (wanted) openDetail(wanted);
    return () => es.close();
  }, [base]);

  const act = async (o: Card, action: string, body?: unknown) => {
    setError('');
    try {
      await api('POST', `${base}/orders/${o.id}/actions/${action}`, body);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('error.generic'));
    }
    await refresh(o.id);
  };
  const openDetail = async (id: string) => {
    const d = await api<Detail>('GET', `${base}/orders/${id}`).catch(() => null);
    if (d) setDetail({ ...d, ...d.card });
  };
  const createTest = async () => {
    setError('');
    try {
      upsert(await api<Card>('POST', `${base}/test-orders`, { type: 'DELIVERY' }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('error.generic'));
    }
  };
  const all = [...orders.values()].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));

  return (
    <section>
      <div class="row">
        <span class={`live ${live ? 'on' : ''}`} role="status">
          {live ? t('orders.live') : t('orders.offline')}
        </span>
        {props.store.test && (
          <button type="button" class="primary" onClick={createTest}>
            {t('orders.test')}
          </button>
        )}
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      <div class="board">
        {COLUMNS.map((col) => {
          const items = all.filter((o) => col.situations.includes(o.situation));
          return (
            <section class="column" key={col.key} aria-labelledby={`col-${col.key}`} data-column={col.key}>
              <h2 id={`col-${col.key}`}>
                {t(col.key)} <span class="count">{items.length}</span>
              </h2>
              {items.length === 0 && <p class="muted">{t('orders.empty')}</p>}
              {items.map((o) => (
                <article class="order" key={o.id} data-order-id={o.id} data-situation={o.situation}>
                  <button type="button" class="link title" onClick={() => openDetail(o.id)}>
                    #{o.displayId}
                  </button>
                  <p>
                    {o.customerName ?? '—'} · {money(o.total)}
                  </p>
                  <p class="muted">
                    {o.type} · {o.situation}
                  </p>
                  <div class="row">
                    {nextActions(o).map((a) => (
                      <button type="button" class="small primary" key={a} onClick={() => act(o, a)}>
                        {t(`act.${a}` as Key)}
                      </button>
                    ))}
                    {!final(o.situation) && (
                      <button type="button" class="small danger" onClick={() => setCancelling(o)}>
                        {t('act.requestCancellation')}
                      </button>
                    )}
                  </div>
                </article>
              ))}
            </section>
          );
        })}
      </div>
      {cancelling && (
        <Confirm
          message={`${t('act.requestCancellation')} #${cancelling.displayId}?`}
          onCancel={() => setCancelling(null)}
          onConfirm={() => {
            const reason = (document.getElementById('cancel-reason') as HTMLInputElement | null)?.value ?? '';
            const o = cancelling;
            setCancelling(null);
            act(o, 'requestCancellation', { reason });
          }}
        >
          <Field id="cancel-reason" label={t('order.reason')}>
            <input id="cancel-reason" maxLength={500} />
          </Field>
        </Confirm>
      )}
      {detail && (
        <Dialog title={`${t('order.detail')} #${detail.displayId}`} onClose={() => setDetail(null)}>
          <dl class="facts">
            <dt>{t('order.customer')}</dt>
            <dd>{detail.customerName ?? '—'}</dd>
            <dt>{t('order.total')}</dt>
            <dd>{money(detail.total)}</dd>
            <dt>{t('cred.status')}</dt>
            <dd>{detail.situation}</dd>
          </dl>
          <h3>{t('order.history')}</h3>
          <ol class="history">
            {detail.history.map((h, i) => (
              <li key={i}>
                {fmtDate(h.createdAt, lang)} — {h.trigger}: {h.from ?? '∅'} → {h.to} ({h.actorKind})
                {h.eventType ? ` · ${h.eventType}` : ''}
              </li>
            ))}
          </ol>
          <div class="row end">
            <button type="button" onClick={() => setDetail(null)}>
              {t('order.close')}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
