import type { BoardEvent, OrderAction, OrderCard, PanelOrderDetail, PanelStore } from '@od/contracts/browser';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { api, boardCards, errorText, storePath } from '../api.ts';
import { askNotify, beep, notify, notifyAllowed, setSound, setUnseen, soundWanted } from '../attention.ts';
import type { Key } from '../i18n.ts';
import { Banner, Choice, Ctx, LoadError, money, useT } from '../ui.tsx';
import { countdown, elapsed, word } from '../words.ts';
import { COLUMNS } from './board-columns.ts';
import { CancelOrder } from './cancel-order.tsx';
import { OrderDetail, Ticket } from './order-detail.tsx';

/** A minute is enough for "12 min"; a second when a confirmation countdown is on screen. */
function useNow(fast: boolean) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), fast ? 1000 : 15_000);
    return () => clearInterval(id);
  }, [fast]);
  return now;
}

export function Orders(props: { store: PanelStore }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [orders, setOrders] = useState<Map<string, OrderCard> | null>(null);
  const [live, setLive] = useState(false);
  const [error, setError] = useState('');
  const [loadFailed, setLoadFailed] = useState(false);
  const [detail, setDetail] = useState<PanelOrderDetail | null>(null);
  const [unseen, setUnseenIds] = useState<Set<string>>(new Set());
  const [column, setColumn] = useState<string>(COLUMNS[0].key);
  const [sound, setSoundOn] = useState(soundWanted());
  const [notifyOn, setNotifyOn] = useState(notifyAllowed());
  const [cancelling, setCancelling] = useState<OrderCard | null>(null);
  /** cursor of the orders older than the loaded page (the board loads the newest 100) */
  const [older, setOlder] = useState<string | null>(null);
  const loadOlder = async () => {
    try {
      const r = await boardCards(props.store.merchantId, older);
      for (const c of r.orders) known.current.add(c.id);
      setOrders((m) => {
        const next = new Map(m ?? []);
        for (const c of r.orders) if (!next.has(c.id)) next.set(c.id, c);
        return next;
      });
      setOlder(r.nextCursor);
    } catch (err) {
      setError(errorText(err, lang, t('error.load')));
    }
  };
  const openId = useRef<string | null>(null);
  openId.current = detail?.id ?? null;
  const known = useRef<Set<string>>(new Set());
  const base = storePath(props.store.merchantId);
  const all = [...(orders?.values() ?? [])].sort((a, b) =>
    (b.createdAt ?? '').localeCompare(a.createdAt ?? ''),
  );
  const now = useNow(all.some((o) => o.situation === 'PENDING' && o.confirmBy));

  const upsert = (c: OrderCard) => {
    known.current.add(c.id);
    setOrders((m) => new Map(m ?? []).set(c.id, c));
  };
  const seen = (id: string) =>
    setUnseenIds((s) => {
      if (!s.has(id)) return s;
      const n = new Set(s);
      n.delete(id);
      return n;
    });
  const openDetail = async (id: string) => {
    seen(id);
    try {
      const d = await api<PanelOrderDetail>('GET', `${base}/orders/${id}`);
      setDetail(d);
    } catch (err) {
      setError(errorText(err, lang, t('error.load')));
    }
  };
  const refresh = async (id: string) => {
    const d = await api<PanelOrderDetail>('GET', `${base}/orders/${id}`).catch(() => null);
    if (!d) return;
    upsert(d.card);
    setDetail((cur) => (cur?.id === id ? d : cur));
  };
  const loadAll = () =>
    boardCards(props.store.merchantId)
      .then(({ orders: cards, nextCursor }) => {
        setOlder(nextCursor);
        for (const c of cards) known.current.add(c.id);
        // the list wins, but a card the stream pushed and the list lacks stays (the list's projection lags)
        setOrders((m) => {
          const next = new Map(cards.map((c) => [c.id, c]));
          for (const [id, c] of m ?? []) if (!next.has(id)) next.set(id, c);
          return next;
        });
        setLoadFailed(false);
      })
      .catch(() => setLoadFailed(true));
  const arrived = (c: OrderCard) => {
    setUnseenIds((s) => new Set(s).add(c.id));
    beep();
    notify(
      `${t('orders.newTitle')} #${c.displayId}`,
      `${c.customerName ?? ''} · ${money(c.total)}`,
      c.id,
      () => openDetail(c.id),
    );
  };

  useEffect(() => {
    loadAll();
    const es = new EventSource(`/panel/api${base}/orders-stream`);
    es.onopen = () => {
      setLive(true);
      loadAll(); // events missed while disconnected
    };
    es.onerror = () => setLive(false);
    es.addEventListener('order', (e) => {
      const { orderId, eventType, card } = JSON.parse((e as MessageEvent).data) as BoardEvent;
      const isNew = eventType === 'CREATED' && !known.current.has(orderId);
      if (card) {
        upsert(card);
        if (isNew) arrived(card);
      }
      // an open detail (history) is read again; a card the panel could not read is fetched here
      if (!card || openId.current === orderId) void refresh(orderId);
    });
    const wanted = new URLSearchParams(location.search).get('order');
    if (wanted) openDetail(wanted);
    return () => {
      es.close();
      setUnseen(0, '');
    };
  }, [base]);
  useEffect(() => setUnseen(unseen.size, t('orders.newTitle')), [unseen, t]);

  const act = async (o: OrderCard, action: OrderAction, body?: { reason: string }) => {
    setError('');
    seen(o.id);
    try {
      await api('POST', `${base}/orders/${o.id}/actions/${action}`, body);
    } catch (err) {
      setError(errorText(err, lang, t('error.generic')));
    }
    await refresh(o.id);
  };
  const createTest = async () => {
    setError('');
    try {
      upsert(await api<OrderCard>('POST', `${base}/test-orders`, { type: 'DELIVERY' }));
    } catch (err) {
      setError(errorText(err, lang, t('error.generic')));
    }
  };
  /** the card shows the natural next step; the detail every step the service allows now */
  const actions = (o: OrderCard, all = false) => {
    const steps = o.nextActions.filter((a) => a !== 'requestCancellation');
    return (
      <>
        {(all ? steps : steps.slice(0, 1)).map((a, i) => (
          <button type="button" class={`small${i === 0 ? ' primary' : ''}`} key={a} onClick={() => act(o, a)}>
            {t(`act.${a}` as Key)}
          </button>
        ))}
        {o.nextActions.includes('requestCancellation') && (
          <button type="button" class="small danger" onClick={() => setCancelling(o)}>
            {t('act.requestCancellation')}
          </button>
        )}
      </>
    );
  };
  return (
    <section class="orders">
      <div class="row toolbar">
        <span class={`live ${live ? 'on' : ''}`} role="status">
          {live ? t('orders.live') : t('orders.offline')}
        </span>
        <button
          type="button"
          class="small"
          aria-pressed={sound}
          onClick={() => {
            setSound(!sound);
            setSoundOn(!sound);
          }}
        >
          {t('orders.sound')}
        </button>
        <button
          type="button"
          class="small"
          aria-pressed={notifyOn}
          onClick={async () => setNotifyOn(notifyOn ? false : await askNotify())}
        >
          {t('orders.notify')}
        </button>
        {props.store.test && (
          <button type="button" class="primary" onClick={createTest}>
            {t('orders.test')}
          </button>
        )}
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      {loadFailed && <LoadError onRetry={loadAll} />}
      {orders === null && !loadFailed && <p>{t('loading')}</p>}
      <div class="column-pick">
        <Choice
          label={t('orders.column')}
          value={column}
          options={COLUMNS.map((c) => [
            c.key,
            `${t(c.key)} (${all.filter((o) => c.situations.includes(o.situation)).length})`,
          ])}
          onValue={setColumn}
        />
      </div>
      <div class="board">
        {COLUMNS.map((col) => {
          const items = all.filter((o) => col.situations.includes(o.situation));
          return (
            <section
              class="column"
              key={col.key}
              aria-labelledby={`col-${col.key}`}
              data-column={col.key}
              data-active={col.key === column ? '' : undefined}
            >
              <h2 id={`col-${col.key}`}>
                {t(col.key)} <span class="count">{items.length}</span>
              </h2>
              {items.length === 0 && <p class="muted">{t('orders.empty')}</p>}
              {items.map((o) => (
                <article
                  class={`order${unseen.has(o.id) ? ' unseen' : ''}`}
                  key={o.id}
                  data-order-id={o.id}
                  data-situation={o.situation}
                  data-unseen={unseen.has(o.id) ? '' : undefined}
                  onClick={() => seen(o.id)}
                  onKeyDown={() => seen(o.id)}
                >
                  <div class="order-head">
                    <button
                      type="button"
                      class="link title"
                      aria-label={`${t('order.open')} #${o.displayId}`}
                      onClick={() => openDetail(o.id)}
                    >
                      #{o.displayId}
                    </button>
                    {unseen.has(o.id) && <span class="badge new">{t('orders.unseen')}</span>}
                    <span class="elapsed" title={t('orders.elapsed')}>
                      {elapsed(o.createdAt, now)}
                    </span>
                  </div>
                  <p>
                    {o.customerName ?? '—'} · {money(o.total)}
                  </p>
                  <p class="muted">
                    {word(lang, 'type', o.type)} · {word(lang, 'situation', o.situation)}
                    {o.itemCount ? ` · ${o.itemCount} ${t('orders.items')}` : ''}
                  </p>
                  {o.situation === 'PENDING' && o.confirmBy && (
                    <p class="countdown">
                      {t('orders.confirmIn')} {countdown(o.confirmBy, now)}
                    </p>
                  )}
                  <div class="row">{actions(o)}</div>
                </article>
              ))}
            </section>
          );
        })}
      </div>
      {older && (
        <div class="row">
          <button type="button" class="small" onClick={loadOlder}>
            {t('orders.older')}
          </button>
        </div>
      )}
      {cancelling && (
        <CancelOrder
          displayId={cancelling.displayId}
          onKeep={() => setCancelling(null)}
          onCancel={(reason) => {
            const o = cancelling;
            setCancelling(null);
            act(o, 'requestCancellation', { reason });
          }}
        />
      )}
      {detail && (
        <>
          <OrderDetail order={detail} onClose={() => setDetail(null)} actions={actions(detail.card, true)} />
          <Ticket order={detail} />
        </>
      )}
    </section>
  );
}
