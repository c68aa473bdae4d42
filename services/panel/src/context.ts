import type { PanelRole } from '@od/contracts';
import type { ServiceBase, ZodApp } from '@od/runtime';
import type { LoginLimiter } from './db/login-limiter.ts';
import type { PanelDb, SessionRow } from './db/panel-db.ts';
import type { LiveOrders } from './live-orders.ts';
import type { LiveStreams } from './live-streams.ts';

/** Everything a panel route needs; built once at start. */
export interface PanelContext {
  base: ServiceBase;
  db: PanelDb;
  limiter: LoginLimiter;
  live: LiveOrders;
  /** the open live streams of this replica, and their revocation on every replica */
  streams: LiveStreams;
  now: () => Date;
}

export type PanelApp = ZodApp;

/** One file per route family registers its routes through this signature. */
export type PanelRoutes = (app: PanelApp, ctx: PanelContext) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the session hook on every /panel/api route but sign-in and password setup */
    session?: SessionRow;
    /** set by the store hook on /panel/api/stores/:merchantId/... */
    store?: { merchantId: string; role: PanelRole };
  }
}
