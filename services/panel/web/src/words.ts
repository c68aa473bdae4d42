import type {
  ApiProfile,
  CredentialStatus,
  DeliveryMode,
  EventType,
  MerchantStatus,
  OrderType,
  PAYMENT_METHODS,
  PanelRole,
  ServiceType,
  Situation,
  WebhookDeliveryStatus,
} from '@od/contracts/browser';
import type { Lang } from './i18n.ts';

/**
 * The API's codes in the merchant's words (pt-BR and English): order situations and types, event
 * and delivery states, credential status and modes, who did what. An unknown code is shown as is.
 */
interface Words {
  situation: Record<Situation, string>;
  type: Record<OrderType, string>;
  status: Record<CredentialStatus | MerchantStatus, string>;
  mode: Record<DeliveryMode, string>;
  profile: Record<ApiProfile, string>;
  service: Record<ServiceType, string>;
  event: Record<EventType | 'TEST', string>;
  delivery: Record<WebhookDeliveryStatus | 'NONE', string>;
  actor: Record<string, string>;
  role: Record<PanelRole, string>;
  reason: Record<string, string>;
  payment: Record<(typeof PAYMENT_METHODS)[number], string>;
  apiError: Record<string, string>;
  done: Record<Situation, string>;
}
type Group = keyof Words;

const pt: Words = {
  situation: {
    PENDING_PAYMENT: 'Aguardando pagamento',
    PENDING: 'Novo',
    ACCEPTED: 'Aceito',
    PREPARING: 'Em preparo',
    READY: 'Pronto',
    DELIVERY: 'Em entrega',
    DONE: 'Concluído',
    CANCELLED: 'Cancelado',
  },
  type: { DELIVERY: 'Entrega', TAKEOUT: 'Retirada', INDOOR: 'No local' },
  status: {
    ACTIVE: 'Ativa',
    PAUSED: 'Pausada',
    REVOKED: 'Revogada',
    AVAILABLE: 'Disponível',
    UNAVAILABLE: 'Indisponível',
  },
  mode: { POLLING: 'Consulta (polling)', WEBHOOK: 'Webhook', BOTH: 'Consulta e webhook' },
  profile: { SPEC: 'Padrão da plataforma', OPEN_DELIVERY: 'Open Delivery 1.4.0' },
  service: { DELIVERY: 'Entrega', TAKEOUT: 'Retirada' },
  event: {
    CREATED: 'Pedido criado',
    CONFIRMED: 'Pedido aceito',
    PREPARING: 'Preparo iniciado',
    READY_FOR_PICKUP: 'Pronto para retirada',
    DISPATCHED: 'Saiu para entrega',
    CONCLUDED: 'Concluído',
    CANCELLED: 'Cancelado',
    MODIFIED: 'Alterado',
    ORDER_CANCELLATION_REQUEST: 'Pedido de cancelamento',
    CANCELLATION_REQUEST_DENIED: 'Cancelamento recusado',
    CANCELLATION_REQUESTED: 'Cancelamento solicitado',
    CANCELLED_DENIED: 'Cancelamento negado',
    COURIER_ASSIGNED: 'Entregador designado',
    COURIER_ROUTE_STARTED: 'Entregador a caminho da loja',
    COURIER_PICKED_UP: 'Entregador retirou o pedido',
    COURIER_ARRIVED: 'Entregador chegou ao cliente',
    COURIER_DELIVERED: 'Entregue pelo entregador',
    COURIER_DELIVERY_FAILED: 'Entrega não realizada',
    COURIER_UNASSIGNED: 'Entregador dispensado',
    COURIER_ROUTE_COMPLETED: 'Entregador concluiu a rota',
    TEST: 'Evento de teste',
  },
  delivery: {
    PENDING: 'Na fila',
    DELIVERED: 'Entregue (2xx)',
    WEBHOOK_FAILED: 'Falhou',
    SKIPPED: 'Não enviado',
    CLEARED: 'Fila limpa',
    NONE: 'Sem webhook',
  },
  actor: {
    PANEL: 'pelo painel',
    CHANNEL: 'pelo canal de venda',
    CREDENTIAL: 'pela integração',
    CUSTOMER: 'pelo cliente',
    COURIER: 'pelo entregador',
    ADMIN: 'pelo suporte',
    SYSTEM: 'pelo sistema',
  },
  role: { OWNER: 'Proprietário(a)', STAFF: 'Equipe' },
  reason: {
    CUSTOMER: 'Cliente desistiu',
    OUT_OF_STOCK: 'Item em falta',
    CLOSED: 'Loja fechando / sem capacidade',
    ADDRESS: 'Endereço fora da área de entrega',
    PAYMENT: 'Problema no pagamento',
    OTHER: 'Outro motivo',
  },
  apiError: {
    invalid_transition: 'O pedido não pode fazer isso agora: a situação dele mudou.',
    webhook_unavailable: 'Esta credencial não recebe webhooks agora (pausada, só consulta ou sem URL).',
    webhook_deactivated:
      'A URL do webhook foi desativada após falhas seguidas: limpe a fila para reativá-la.',
    not_found: 'Não encontrado: pode ter sido removido. Atualize a página.',
    forbidden: 'Seu papel nesta loja não permite isso.',
    csrf_token_invalid: 'Sua sessão mudou. Recarregue a página.',
    not_a_test_store: 'Pedidos de teste só existem em lojas de teste.',
    not_in_standard: 'O padrão Open Delivery não tem evento de teste.',
    no_signing_secret: 'Esta credencial ainda não tem segredo de webhook: salve a URL de novo.',
    too_many_attempts: 'Muitas tentativas. Espere um pouco e tente de novo.',
  },
  payment: {
    CREDIT: 'Cartão de crédito',
    DEBIT: 'Cartão de débito',
    CREDIT_DEBIT: 'Cartão',
    MEAL_VOUCHER: 'Vale-refeição',
    FOOD_VOUCHER: 'Vale-alimentação',
    DIGITAL_WALLET: 'Carteira digital',
    PIX: 'Pix',
    CASH: 'Dinheiro',
    COUPON: 'Cupom',
    REDEEM: 'Resgate',
    PREPAID_REDEEM: 'Resgate pré-pago',
    OTHER: 'Outro',
  },
  done: {
    PENDING_PAYMENT: 'Criado, aguardando pagamento,',
    PENDING: 'Recebido',
    ACCEPTED: 'Aceito',
    PREPARING: 'Preparo iniciado',
    READY: 'Marcado como pronto',
    DELIVERY: 'Saiu para entrega',
    DONE: 'Concluído',
    CANCELLED: 'Cancelado',
  },
};

const en: Words = {
  situation: {
    PENDING_PAYMENT: 'Awaiting payment',
    PENDING: 'New',
    ACCEPTED: 'Accepted',
    PREPARING: 'Preparing',
    READY: 'Ready',
    DELIVERY: 'Out for delivery',
    DONE: 'Finished',
    CANCELLED: 'Cancelled',
  },
  type: { DELIVERY: 'Delivery', TAKEOUT: 'Takeout', INDOOR: 'Dine-in' },
  status: {
    ACTIVE: 'Active',
    PAUSED: 'Paused',
    REVOKED: 'Revoked',
    AVAILABLE: 'Available',
    UNAVAILABLE: 'Unavailable',
  },
  mode: { POLLING: 'Polling', WEBHOOK: 'Webhook', BOTH: 'Polling and webhook' },
  profile: { SPEC: 'Platform standard', OPEN_DELIVERY: 'Open Delivery 1.4.0' },
  service: { DELIVERY: 'Delivery', TAKEOUT: 'Takeout' },
  event: {
    CREATED: 'Order created',
    CONFIRMED: 'Order accepted',
    PREPARING: 'Preparation started',
    READY_FOR_PICKUP: 'Ready for pickup',
    DISPATCHED: 'Out for delivery',
    CONCLUDED: 'Finished',
    CANCELLED: 'Cancelled',
    MODIFIED: 'Changed',
    ORDER_CANCELLATION_REQUEST: 'Cancellation request',
    CANCELLATION_REQUEST_DENIED: 'Cancellation denied',
    CANCELLATION_REQUESTED: 'Cancellation requested',
    CANCELLED_DENIED: 'Cancellation refused',
    COURIER_ASSIGNED: 'Courier assigned',
    COURIER_ROUTE_STARTED: 'Courier on the way to the store',
    COURIER_PICKED_UP: 'Courier picked the order up',
    COURIER_ARRIVED: 'Courier arrived at the customer',
    COURIER_DELIVERED: 'Delivered by the courier',
    COURIER_DELIVERY_FAILED: 'Delivery failed',
    COURIER_UNASSIGNED: 'Courier released',
    COURIER_ROUTE_COMPLETED: 'Courier finished the route',
    TEST: 'Test event',
  },
  delivery: {
    PENDING: 'Queued',
    DELIVERED: 'Delivered (2xx)',
    WEBHOOK_FAILED: 'Failed',
    SKIPPED: 'Not sent',
    CLEARED: 'Queue cleared',
    NONE: 'No webhook',
  },
  actor: {
    PANEL: 'from the panel',
    CHANNEL: 'by the sales channel',
    CREDENTIAL: 'by the integration',
    CUSTOMER: 'by the customer',
    COURIER: 'by the courier',
    ADMIN: 'by support',
    SYSTEM: 'by the system',
  },
  role: { OWNER: 'Owner', STAFF: 'Staff' },
  reason: {
    CUSTOMER: 'Customer gave up',
    OUT_OF_STOCK: 'Item out of stock',
    CLOSED: 'Store closing / no capacity',
    ADDRESS: 'Address outside the delivery area',
    PAYMENT: 'Payment problem',
    OTHER: 'Other reason',
  },
  apiError: {
    invalid_transition: 'The order cannot do that now: its status changed.',
    webhook_unavailable: 'This credential receives no webhooks now (paused, polling only or no URL).',
    webhook_deactivated:
      'The webhook URL was deactivated after repeated failures: clear the queue to reactivate it.',
    not_found: 'Not found: it may have been removed. Reload the page.',
    forbidden: 'Your role in this store does not allow this.',
    csrf_token_invalid: 'Your session changed. Reload the page.',
    not_a_test_store: 'Test orders exist only in test stores.',
    not_in_standard: 'The Open Delivery standard has no test event.',
    no_signing_secret: 'This credential has no webhook secret yet: save the URL again.',
    too_many_attempts: 'Too many attempts. Wait a little and try again.',
  },
  payment: {
    CREDIT: 'Credit card',
    DEBIT: 'Debit card',
    CREDIT_DEBIT: 'Card',
    MEAL_VOUCHER: 'Meal voucher',
    FOOD_VOUCHER: 'Food voucher',
    DIGITAL_WALLET: 'Digital wallet',
    PIX: 'Pix',
    CASH: 'Cash',
    COUPON: 'Coupon',
    REDEEM: 'Redeem',
    PREPAID_REDEEM: 'Prepaid redeem',
    OTHER: 'Other',
  },
  done: {
    PENDING_PAYMENT: 'Created, awaiting payment,',
    PENDING: 'Received',
    ACCEPTED: 'Accepted',
    PREPARING: 'Preparation started',
    READY: 'Marked ready',
    DELIVERY: 'Out for delivery',
    DONE: 'Finished',
    CANCELLED: 'Cancelled',
  },
};

const all: Record<Lang, Words> = { 'pt-BR': pt, en };

export const word = (lang: Lang, group: Group, code: string | null | undefined): string =>
  code ? ((all[lang][group] as Record<string, string>)[code] ?? code) : '—';

export const REASONS = Object.keys(pt.reason);

/** An API refusal in the merchant's words (by its `error` code); the service's message otherwise. */
export const apiErrorText = (lang: Lang, code: string | undefined, message: string): string =>
  (code && all[lang].apiError[code]) || message;

const time = (iso: string, lang: Lang) =>
  new Date(iso).toLocaleTimeString(lang === 'en' ? 'en-GB' : 'pt-BR', { hour: '2-digit', minute: '2-digit' });

/** One line of an order's history as a sentence: "Aceito pelo painel às 20:14". */
export function historyLine(
  h: {
    from: string | null;
    to: string;
    actorKind: string | null;
    eventType: string | null;
    createdAt: string;
  },
  lang: Lang,
): string {
  const what = h.from === h.to && h.eventType ? word(lang, 'event', h.eventType) : word(lang, 'done', h.to);
  const who = h.actorKind ? ` ${word(lang, 'actor', h.actorKind)}` : '';
  return `${what}${who} ${lang === 'en' ? 'at' : 'às'} ${time(h.createdAt, lang)}`;
}

/** "12 min", "1 h 05" since `iso` (at `now`). */
export function elapsed(iso: string | null, now: number): string {
  if (!iso) return '—';
  const min = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')}`;
}

/** "4:59" left until `iso`, "0:00" when past. */
export function countdown(iso: string, now: number): string {
  const s = Math.max(0, Math.floor((Date.parse(iso) - now) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A price typed the Brazilian way ("12,50", "1.234,5", "12.5") in reais; NaN when not a price. */
export function parseBrl(text: string): number {
  const s = text.trim().replace(/^R\$\s*/, '');
  if (/^\d+([,.]\d{1,2})?$/.test(s)) return Number(s.replace(',', '.'));
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(s)) return Number(s.replace(/\./g, '').replace(',', '.'));
  return Number.NaN;
}

/** A price for an input: 12.5 -> "12,50". */
export const formatBrl = (v: number) => v.toFixed(2).replace('.', ',');
