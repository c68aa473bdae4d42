import type { Situation } from './codes.ts';
import type { Order } from './order.ts';

/** What orders' admin ops answer (the Admin API and the merchant panel read them), types only. */

/** One line of an order's history (orders' `admin.get`), oldest first. */
export interface OrderHistoryEntry {
  trigger: string;
  from: Situation | null;
  to: Situation;
  actorKind: string | null;
  actorClientId: string | null;
  actorUserId: string | null;
  actorEmail: string | null;
  eventId: string | null;
  eventType: string | null;
  detail: unknown;
  createdAt: string;
}

/** orders' `admin.get`: the Order document in any state, with its situation and history page. */
export type AdminOrderView = Order & {
  situation: Situation;
  channel: string | null;
  confirmBy: string | null;
  deliveryCode: string | null;
  cancellationRequest: unknown;
  history: OrderHistoryEntry[];
  historyNextCursor?: string;
};

/** orders' `admin.storeSummary`: today's orders and sales, open orders by situation. */
export interface StoreSummary {
  today: { orders: number; sales: number; cancelled: number };
  open: Partial<Record<Situation, number>>;
}
