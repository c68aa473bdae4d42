import type { GatewayContext } from '../context.ts';

/**
 * Cross-replica barrier for credential changes: after auth wrote revision `rev` to the credentials
 * bucket, the gateway that handled the admin request asks every gateway replica to confirm its
 * watched view includes `rev` before answering, so a pause is effective on the very next request at
 * every replica (not only at this one).
 */
const subject = (ctx: GatewayContext) => `${ctx.config.NATS_PREFIX}.gateway.credentials.sync`;
const enc = new TextEncoder();

/** Every gateway answers sync requests (called once per gateway, at start). */
export function serveCredentialSync(ctx: GatewayContext): void {
  ctx.nc.subscribe(subject(ctx), {
    callback: (err, msg) => {
      if (err) return;
      let rev = 0;
      try {
        rev = Number((msg.json() as { rev?: unknown }).rev) || 0;
      } catch {
        return;
      }
      void ctx.credentials.waitForRevision(rev, 2000).then((ok) => {
        if (msg.reply) msg.respond(enc.encode(JSON.stringify({ ok })));
      });
    },
  });
}

/**
 * Waits until this replica, and every replica answering within the window, has seen `rev`.
 * Returns false when some replica did not confirm in time (the change is still applied).
 */
export async function awaitCredentialRevision(ctx: GatewayContext, rev: number): Promise<boolean> {
  if (!(rev > 0)) return true;
  let ok = await ctx.credentials.waitForRevision(rev, 2000);
  try {
    const replies = await ctx.nc.requestMany(subject(ctx), enc.encode(JSON.stringify({ rev })), {
      strategy: 'stall',
      stall: 50,
      maxWait: 2500,
    });
    for await (const m of replies) {
      try {
        if (!(m.json() as { ok?: boolean }).ok) ok = false;
      } catch {
        ok = false;
      }
    }
  } catch (e) {
    ctx.log.warn({ err: (e as Error).message }, 'credential sync barrier failed');
  }
  if (!ok) ctx.log.warn({ rev }, 'a gateway replica did not confirm a credential change in time');
  return ok;
}
