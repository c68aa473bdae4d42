import {
  type CredentialRecord,
  EVENT_TYPES,
  type PanelEventEntry,
  type PanelEventsPage,
  type PanelStore,
} from '@od/contracts/browser';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, storePath } from '../api.ts';
import { Banner, Choice, Ctx, Dialog, fmtDate, LoadError, useT } from '../ui.tsx';
import { word } from '../words.ts';

/**
 * The credential's events, as the best webhook dashboards show them: the webhook delivery beside
 * the integrator's acknowledgment, the board's order number, payload and last answer, filters
 * applied by the server, resend from any event.
 */
export function Events(props: { store: PanelStore; credential: CredentialRecord }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [state, setState] = useState('all');
  const [type, setType] = useState('');
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<PanelEventsPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [viewing, setViewing] = useState<PanelEventEntry | null>(null);
  const [feedback, setFeedback] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const base = storePath(props.store.merchantId, `/credentials/${props.credential.clientId}`);
  const cursor = pages[pages.length - 1];
  /** only the answer of the latest request is shown (filters change faster than answers come) */
  const latest = useRef(0);
  const load = () => {
    setFailed(false);
    const mine = ++latest.current;
    const q = new URLSearchParams({
      limit: '20',
      ...(state === 'failed' ? { delivery: 'failed' } : { state }),
      ...(cursor ? { page: cursor } : {}),
      ...(type ? { eventType: type } : {}),
    });
    api<PanelEventsPage>('GET', `${base}/events?${q}`)
      .then((p) => mine === latest.current && setPage(p))
      .catch(() => mine === latest.current && setFailed(true));
  };
  useEffect(load, [state, type, cursor, base]);
  const reset = () => setPages([null]);
  const resend = async (e: PanelEventEntry) => {
    setFeedback(null);
    try {
      await api('POST', `${base}/events/${e.eventId}/resend`);
      setFeedback({ kind: 'ok', text: `${t('wh.resent')} (${word(lang, 'event', e.eventType)})` });
      load();
    } catch (err) {
      setFeedback({ kind: 'error', text: errorText(err, lang, t('error.generic')) });
    }
  };
  const order = (e: PanelEventEntry) => (e.displayId ? `#${e.displayId}` : e.orderId.slice(0, 8));

  return (
    <section class="card" aria-labelledby="ev-title">
      <h3 id="ev-title">{t('ev.title')}</h3>
      <p class="muted note">{t('wh.ackNote')}</p>
      <div class="row">
        <Choice
          label={t('ev.state')}
          value={state}
          options={[
            ['all', t('ev.all')],
            ['pending', t('ev.pending')],
            ['acknowledged', t('ev.acknowledged')],
            ['failed', t('ev.failed')],
          ]}
          onValue={(v) => {
            setState(v);
            reset();
          }}
        />
        <Choice
          label={t('ev.type')}
          value={type}
          options={[
            ['', t('ev.all')],
            ...EVENT_TYPES.map((x): [string, string] => [x, word(lang, 'event', x)]),
          ]}
          onValue={(v) => {
            setType(v);
            reset();
          }}
        />
      </div>
      {feedback && <Banner kind={feedback.kind}>{feedback.text}</Banner>}
      {failed && <LoadError onRetry={load} />}
      {page && page.items.length === 0 && <p>{t('ev.none')}</p>}
      {page && page.items.length > 0 && (
        <ul class="events" aria-label={t('ev.title')}>
          {page.items.map((e) => (
            <li key={e.eventId} class="event" data-event-id={e.eventId} data-event-type={e.eventType}>
              <div class="event-main">
                <strong>{word(lang, 'event', e.eventType)}</strong>{' '}
                <a href={`/panel/s/${props.store.merchantId}/orders?order=${e.orderId}`}>{order(e)}</a>
                <span class="muted"> · {fmtDate(e.createdAt, lang)}</span>
              </div>
              <dl class="event-states">
                <div>
                  <dt>{t('wh.delivery')}</dt>
                  <dd>
                    <span
                      class={`status ${e.delivery?.status === 'DELIVERED' ? 'active' : e.delivery?.status === 'WEBHOOK_FAILED' ? 'revoked' : 'paused'}`}
                      data-delivery={e.delivery?.status ?? 'NONE'}
                    >
                      {word(lang, 'delivery', e.delivery?.status ?? 'NONE')}
                    </span>
                  </dd>
                </div>
                <div>
                  <dt>{t('wh.ack')}</dt>
                  <dd data-ack={e.acknowledged ? 'yes' : 'no'}>
                    {e.acknowledged ? t('ev.acknowledged') : t('ev.pending')}
                  </dd>
                </div>
              </dl>
              <div class="row">
                <button type="button" class="small" onClick={() => setViewing(e)}>
                  {t('wh.view')} <span class="sr-only">{word(lang, 'event', e.eventType)}</span>
                </button>
                <button type="button" class="small" onClick={() => resend(e)}>
                  {t('wh.resend')} <span class="sr-only">{word(lang, 'event', e.eventType)}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        {pages.length > 1 && (
          <button type="button" class="small" onClick={() => setPages(pages.slice(0, -1))}>
            ←
          </button>
        )}
        {page?.next && (
          <button type="button" class="small" onClick={() => setPages([...pages, page.next])}>
            {t('ev.more')}
          </button>
        )}
      </div>
      {viewing && (
        <Dialog
          title={`${word(lang, 'event', viewing.eventType)} · ${order(viewing)}`}
          onClose={() => setViewing(null)}
        >
          <h3>{t('wh.payload')}</h3>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be keyboard-reachable */}
          <pre class="payload" tabIndex={0}>
            {JSON.stringify(viewing.envelope, null, 2)}
          </pre>
          <h3>{t('wh.response')}</h3>
          {viewing.delivery ? (
            <dl class="facts">
              <dt>{t('wh.delivery')}</dt>
              <dd>{word(lang, 'delivery', viewing.delivery.status)}</dd>
              <dt>{t('wh.status')}</dt>
              <dd>{viewing.delivery.lastStatusCode ?? '—'}</dd>
              <dt>{t('wh.error')}</dt>
              <dd>{viewing.delivery.lastError ?? '—'}</dd>
              <dt>{t('wh.attempts')}</dt>
              <dd>{viewing.delivery.attempts}</dd>
              <dt>{t('wh.when')}</dt>
              <dd>{fmtDate(viewing.delivery.deliveredAt, lang)}</dd>
            </dl>
          ) : (
            <p>{t('wh.noResponse')}</p>
          )}
          <div class="row end">
            <button type="button" onClick={() => setViewing(null)}>
              {t('order.close')}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
