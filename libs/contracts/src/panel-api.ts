import type { AdminOrderView, StoreSummary } from './admin-order.ts';
import type { CredentialStatus, DeliveryMode, OrderAction, PanelRole } from './codes.ts';
import type { AdminFeedEntry } from './feed.ts';
import type { OrderCard } from './order-card.ts';
import type { WebhookDeliveryView } from './webhook.ts';

/**
 * What the merchant panel's API answers its page (services/panel), types only: the panel's
 * handlers build them, the page reads them through `@od/contracts/browser`.
 */

/** A store of the signed-in user (`GET /panel/api/me`). */
export interface PanelStore {
  merchantId: string;
  name: string;
  role: PanelRole;
  test: boolean;
}
export interface PanelMe {
  email: string;
  csrfToken: string;
  stores: PanelStore[];
}

/** `GET …/orders/{orderId}`: the admin view, its board card and the actions allowed now. */
export type PanelOrderDetail = AdminOrderView & { card: OrderCard; nextActions: OrderAction[] };

/**
 * What a board receives over SSE (`…/orders-stream`, event `order`) for each order event of its
 * store: the order's card after the event, null when it could not be read (the page reads it).
 */
export interface BoardEvent {
  orderId: string;
  eventType: string;
  createdAt: string;
  card: OrderCard | null;
}

/** `GET …/credentials/{clientId}/events`: a feed entry with its webhook delivery and board number. */
export interface PanelEventEntry extends AdminFeedEntry {
  displayId: string | null;
  delivery: WebhookDeliveryView | null;
}
export interface PanelEventsPage {
  items: PanelEventEntry[];
  /** the `page` of the next request; null on the last page */
  next: string | null;
  /** absent with `delivery=failed` */
  pending?: number;
}

/** A credential's integration health on the overview (OWNER only). */
export interface IntegrationHealth {
  clientId: string;
  name: string;
  status: CredentialStatus;
  deliveryMode: DeliveryMode;
  lastPollAt: string | null;
  lastDeliveredAt: string | null;
  pending: number;
  webhookPending: number;
  webhookDeactivated: boolean;
  consecutiveFailures: number;
}

/** `GET …/overview`. */
export type PanelOverview = StoreSummary & { integrations?: IntegrationHealth[] };
