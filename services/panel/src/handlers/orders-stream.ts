import { z } from 'zod';
import type { PanelContext, PanelRoutes } from '../context.ts';
import { SESSION_IDLE_MS, sessionAlive } from '../domain/session.ts';
import { requireStore } from '../http/guards.ts';

const SSE_HEARTBEAT_MS = 15_000;

/** When the session ends if nothing touches it: its absolute expiry or its idle deadline. */
const deadline = (s: { lastSeenAt: Date; expiresAt: Date }) =>
  Math.min(s.expiresAt.getTime(), s.lastSeenAt.getTime() + SESSION_IDLE_MS);

/** Still signed in and still a member of the store (what opening the stream required). */
async function stillAllowed(ctx: PanelContext, sessionId: string, userId: string, merchantId: string) {
  const s = await ctx.db.session(sessionId);
  if (!s || !sessionAlive(s, ctx.now())) return null;
  return (await ctx.db.membership(userId, merchantId)) ? s : null;
}

/**
 * The board's live stream (server-sent events, event `order` with `{ orderId, eventType, createdAt,
 * card }`, card = OrderCard). It lives no longer than the authorization that opened it: it closes
 * at sign-out, sign-out everywhere, a new password and removal from the store (revocations on every
 * replica, live-streams.ts), at the session's expiry (a timer at its deadline, re-armed while
 * other requests keep the session alive), and when a heartbeat finds the session or membership gone.
 * A session holds at most STREAMS_PER_SESSION streams per replica: the next closes the oldest.
 */
export const orderStreamRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId/orders-stream',
    { schema: { params: z.object({ merchantId: z.string() }) }, onRequest: requireStore(ctx, 'orders') },
    (request, reply) => {
      const session = request.session!;
      const { merchantId } = request.store!;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 1000\n\n');
      let ended = false;
      let expiry: NodeJS.Timeout | undefined;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(beat);
        clearTimeout(expiry);
        stopListening();
        unregister();
        res.end();
      };
      const recheck = async () => {
        const s = await stillAllowed(ctx, session.id, session.userId, merchantId).catch(() => undefined);
        if (s === null) return end();
        return s;
      };
      const arm = (at: number) => {
        expiry = setTimeout(
          async () => {
            const s = await recheck();
            if (s && !ended) arm(deadline(s));
          },
          Math.max(0, at - ctx.now().getTime()),
        );
      };
      const stopListening = ctx.live.listen(merchantId, (e) =>
        res.write(`event: order\ndata: ${JSON.stringify(e)}\n\n`),
      );
      const unregister = ctx.streams.open({
        sessionId: session.id,
        userId: session.userId,
        merchantId,
        close: end,
      });
      const beat = setInterval(async () => {
        if ((await recheck()) && !ended) res.write(': keep-alive\n\n');
      }, SSE_HEARTBEAT_MS);
      arm(deadline(session));
      request.raw.on('close', end);
    },
  );
};
