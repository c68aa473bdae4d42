import type { PanelOrderDetail } from '@od/contracts/browser';
import { useContext } from 'preact/hooks';

import { Ctx, Dialog, fmtDate, money, useT } from '../ui.tsx';
import { historyLine, word } from '../words.ts';

/** What the kitchen cooks: quantity, item, options, notes (screen and printed ticket alike). */
function Items(props: { order: PanelOrderDetail }) {
  return (
    <ul class="items">
      {(props.order.items ?? []).map((it) => (
        <li key={it.id}>
          <strong>
            {it.quantity}× {it.name}
          </strong>{' '}
          <span class="price">{money(it.totalPrice?.value)}</span>
          {it.options?.length > 0 && (
            <ul>
              {it.options.map((o) => (
                <li key={o.id}>
                  {o.quantity}× {o.groupName ? `${o.groupName}: ` : ''}
                  {o.name}
                </li>
              ))}
            </ul>
          )}
          {it.specialInstructions && <p class="note">{it.specialInstructions}</p>}
        </li>
      ))}
    </ul>
  );
}

function address(o: PanelOrderDetail) {
  const a = o.delivery?.deliveryAddress;
  if (!a) return null;
  return (
    a.formattedAddress ??
    [`${a.street}, ${a.number}`, a.complement, a.district, `${a.city}/${a.state}`].filter(Boolean).join(' · ')
  );
}

/** The facts the courier and the cashier need: customer, phone, address, payment, times. */
function Facts(props: { order: PanelOrderDetail }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const o = props.order;
  const pay = o.payments;
  const addr = address(o);
  return (
    <dl class="facts">
      <dt>{t('order.type')}</dt>
      <dd>{word(lang, 'type', o.type)}</dd>
      <dt>{t('order.status')}</dt>
      <dd>{word(lang, 'situation', o.situation)}</dd>
      <dt>{t('order.customer')}</dt>
      <dd>{o.customer?.name ?? '—'}</dd>
      <dt>{t('order.phone')}</dt>
      <dd>
        {o.customer?.phone?.number ? (
          <a href={`tel:${o.customer.phone.number}`}>{o.customer.phone.number}</a>
        ) : (
          '—'
        )}
        {o.customer?.phone?.extension ? ` (${o.customer.phone.extension})` : ''}
      </dd>
      {addr && (
        <>
          <dt>{t('order.address')}</dt>
          <dd>{addr}</dd>
          <dt>{t('order.reference')}</dt>
          <dd>{o.delivery?.deliveryAddress.reference ?? '—'}</dd>
        </>
      )}
      <dt>{t('order.payment')}</dt>
      <dd>
        {(pay?.methods ?? []).map((m, i) => (
          <span key={i} class="pay">
            {word(lang, 'payment', m.method)}
            {m.brand ? ` ${m.brand}` : ''} · {money(m.value)} ·{' '}
            {m.type === 'PREPAID' ? t('order.prepaid') : t('order.toCharge')}
            {m.changeFor ? ` · ${t('order.change')} ${money(m.changeFor)}` : ''}
          </span>
        ))}
        {(pay?.methods ?? []).length === 0 && '—'}
      </dd>
      <dt>{t('order.total')}</dt>
      <dd>
        <strong>{money(o.total?.orderAmount?.value)}</strong>
        {o.total?.otherFees?.value ? ` (${t('order.fees')} ${money(o.total.otherFees.value)})` : ''}
        {o.total?.discount?.value ? ` (${t('order.discount')} −${money(o.total.discount.value)})` : ''}
      </dd>
      <dt>{t('order.placed')}</dt>
      <dd>{fmtDate(o.createdAt, lang)}</dd>
      {o.delivery?.estimatedDeliveryDateTime && (
        <>
          <dt>{t('order.eta')}</dt>
          <dd>{fmtDate(o.delivery.estimatedDeliveryDateTime, lang)}</dd>
        </>
      )}
      {o.extraInfo && (
        <>
          <dt>{t('order.notes')}</dt>
          <dd>{o.extraInfo}</dd>
        </>
      )}
    </dl>
  );
}

/** The kitchen ticket: only printed (print CSS: 80 mm thermal paper), never on screen. */
export function Ticket(props: { order: PanelOrderDetail }) {
  const { lang } = useContext(Ctx);
  const o = props.order;
  return (
    <div class="ticket" aria-hidden="true">
      <p class="ticket-no">#{o.displayId ?? o.card.displayId}</p>
      <p>
        {word(lang, 'type', o.type)} · {fmtDate(o.createdAt, lang)}
      </p>
      <Items order={o} />
      <Facts order={o} />
    </div>
  );
}

export function OrderDetail(props: {
  order: PanelOrderDetail;
  onClose: () => void;
  actions: preact.ComponentChildren;
}) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const o = props.order;
  return (
    <Dialog title={`${t('order.detail')} #${o.displayId ?? o.card.displayId}`} onClose={props.onClose}>
      <div class="order-detail">
        <h3>{t('order.items')}</h3>
        <Items order={o} />
        <Facts order={o} />
        <div class="row">{props.actions}</div>
        <h3>{t('order.history')}</h3>
        <ol class="history">
          {o.history.map((h, i) => (
            <li key={i}>{historyLine(h, lang)}</li>
          ))}
        </ol>
      </div>
      <div class="row end">
        <button type="button" onClick={() => window.print()}>
          {t('order.print')}
        </button>
        <button type="button" onClick={props.onClose}>
          {t('order.close')}
        </button>
      </div>
    </Dialog>
  );
}
