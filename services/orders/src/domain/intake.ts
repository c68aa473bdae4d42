import {
  type ClosedReason,
  DEFAULT_CONFIRMATION_TIMEOUT_SECONDS,
  DEFAULT_TIME_ZONE,
  isOpen,
  type MerchantSnapshot,
  type OrderType,
  type StoreDay,
} from '@od/contracts';
import { errors, HttpException } from '@od/errors';

/**
 * Intake's store rule (docs/decisions.md "A store's day"): an order of a store or service type that
 * is closed, paused or outside its hours at the order's time (the scheduled start of a SCHEDULED
 * order, else now) is refused with 409 store_closed. DELIVERY and TAKEOUT orders are judged with
 * their service type; INDOOR orders (no service type in the standard's Merchant) by the store alone.
 * Test stores follow the same rule. Pure.
 */
export function assertStoreOpen(snapshot: MerchantSnapshot, type: OrderType, at: Date): void {
  const day = storeDayOf(snapshot);
  const service = type === 'DELIVERY' || type === 'TAKEOUT' ? type : null;
  const o = isOpen(day, service, at);
  if (o.open) return;
  throw new HttpException(errors.storeClosed(closedMessage(o.reason, type, day, o.until)));
}

/** The store's day; a catalog of an earlier release sends none: its public statuses, no hours. */
export function storeDayOf(s: MerchantSnapshot): StoreDay {
  if (s.store) return s.store;
  const m = s.merchant as { status?: string; services?: { serviceType: string; status: string }[] };
  const status = (v: unknown) => (v === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE') as StoreDay['status'];
  return {
    status: status(m.status),
    pausedUntil: null,
    pauseReason: null,
    timeZone: DEFAULT_TIME_ZONE,
    serviceHours: null,
    services: (m.services ?? []).map((x) => ({
      serviceType: x.serviceType as 'DELIVERY',
      status: status(x.status),
    })),
    confirmationTimeoutSeconds: DEFAULT_CONFIRMATION_TIMEOUT_SECONDS,
  };
}

/** The order types as the 409's message says them (a code such as `TAKEOUT` means nothing to a customer). */
const ORDERS_OF_TYPE: Record<OrderType, string> = {
  DELIVERY: 'pedidos para entrega',
  TAKEOUT: 'pedidos para retirada',
  INDOOR: 'pedidos para consumo no local',
};

export function closedMessage(reason: ClosedReason, type: OrderType, day: StoreDay, until?: string): string {
  const service = day.services.find((s) => s.serviceType === type);
  const orders = ORDERS_OF_TYPE[type];
  switch (reason) {
    case 'STORE_CLOSED':
      return 'A loja está fechada e não recebe pedidos.';
    case 'STORE_PAUSED':
      return `A loja está pausada até ${until} (${day.pauseReason ?? 'sem motivo'}).`;
    case 'SERVICE_NOT_OFFERED':
      return `A loja não oferece ${orders}.`;
    case 'SERVICE_CLOSED':
      return `A loja não está recebendo ${orders}.`;
    case 'SERVICE_PAUSED':
      return `A loja pausou os ${orders} até ${until} (${service?.pauseReason ?? 'sem motivo'}).`;
    case 'OUTSIDE_HOURS':
      return `Fora do horário de funcionamento da loja (${day.timeZone}) no horário do pedido.`;
  }
}
