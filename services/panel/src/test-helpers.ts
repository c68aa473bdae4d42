import type { PanelRole } from '@od/contracts';
import type { TestStack } from '@od/testing';
import { SIGN_IN_LIMITS } from './db/login-limiter.ts';

/** A browser-like client of the panel: keeps the session cookie and sends the CSRF token. */
export interface PanelClient {
  cookie: string;
  csrf: string;
  me: { email: string; csrfToken: string; stores: { merchantId: string; name: string; role: string }[] };
  /** fetch under the panel's URL with the cookie; `csrf: false` leaves the header out */
  call(method: string, path: string, body?: unknown, opts?: { csrf?: boolean }): Promise<Response>;
}

export async function createStore(stack: TestStack, name: string, test = true): Promise<string> {
  const r = await stack.admin('POST', '/admin/v1/merchants', { name, test });
  if (r.status !== 201) throw new Error(`store: ${r.status} ${await r.text()}`);
  return (await r.json()).id;
}

export async function invite(stack: TestStack, merchantId: string, email: string, role: PanelRole) {
  const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/users`, { email, role });
  if (r.status !== 201) throw new Error(`invite: ${r.status} ${await r.text()}`);
  return (await r.json()) as {
    userId: string;
    email: string;
    role: string;
    existingAccount: boolean;
    setupToken: string;
    setupUrl: string;
  };
}

export const panelFetch = (stack: TestStack, path: string, init?: RequestInit) =>
  fetch(stack.panel!.url + path, init);

/** POST of a JSON body to the panel without a session (password setup, sign-in). */
const postJson = (stack: TestStack, path: string, body: unknown, headers: Record<string, string>) =>
  panelFetch(stack, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

export const setPassword = (stack: TestStack, token: string, password: string, headers = {}) =>
  postJson(stack, '/panel/api/password-setup', { token, password }, headers);

export const signInRequest = (stack: TestStack, email: string, password: string, headers = {}) =>
  postJson(stack, '/panel/api/session', { email, password }, headers);

/**
 * Wrong guesses at `email` (from the network of `headers`) until its sign-in delay holds with room
 * to spare: the free attempts, then one that starts a 1 s delay. A guess answers after its scrypt,
 * which on a loaded machine can outlast the delay that guess started; then this waits the delay out
 * and guesses again (admitted: the delay doubles) until what is left of it is 3 guesses long. So a
 * request sent at once is answered (in the time of a guess, scrypt included) inside the delay unless
 * the machine stalls for longer than that. `delayedUntil`: the earliest the delay can end (the last
 * guess was counted after it was sent).
 */
export async function guessUntilDelayed(stack: TestStack, email: string, headers = {}) {
  const free = SIGN_IN_LIMITS.freeAttempts;
  for (let admitted = 1; admitted <= free + 5; admitted++) {
    const sent = Date.now();
    const r = await signInRequest(stack, email, 'errada-errada-1', headers);
    const answered = Date.now();
    if (r.status !== 401) throw new Error(`guess ${admitted}: ${r.status} ${await r.text()}`);
    if (admitted <= free) continue;
    const delay = 1000 * 2 ** (admitted - free - 1);
    const guess = answered - sent;
    if (sent + delay - answered >= Math.max(500, 3 * guess)) return { delayedUntil: sent + delay };
    // counted before `answered`: the delay is over by `answered + delay`
    await new Promise((done) => setTimeout(done, answered + delay + 10 - Date.now()));
  }
  throw new Error(`the delay never outlasted 3 guesses (${free + 5} admitted)`);
}

export async function signIn(stack: TestStack, email: string, password: string): Promise<PanelClient> {
  const r = await signInRequest(stack, email, password);
  if (r.status !== 200) throw new Error(`sign-in: ${r.status} ${await r.text()}`);
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0];
  const me = await r.json();
  return {
    cookie,
    csrf: me.csrfToken,
    me,
    call: (method, path, body, opts = {}) =>
      panelFetch(stack, path, {
        method,
        headers: {
          cookie,
          ...(opts.csrf === false ? {} : { 'x-csrf-token': me.csrfToken }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

/** Store + invited user with a password + signed-in client. */
export async function storeUser(
  stack: TestStack,
  role: PanelRole,
  opts: { merchantId?: string; email?: string } = {},
) {
  const merchantId = opts.merchantId ?? (await createStore(stack, `Loja ${role}`));
  const email = opts.email ?? `${role.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@loja.test`;
  const inv = await invite(stack, merchantId, email, role);
  const password = 'senha-forte-123';
  const set = await setPassword(stack, inv.setupToken, password);
  if (set.status !== 204) throw new Error(`setup: ${set.status}`);
  return { merchantId, email, password, userId: inv.userId, client: await signIn(stack, email, password) };
}

/** The event types of one order in the integrator's polling (`GET /v1/events:polling`), for `expect.poll`. */
export async function polledEventTypes(stack: TestStack, bearer: string, orderId: string): Promise<string[]> {
  const r = await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${bearer}` } });
  return ((await r.json()) as { eventType: string; orderId: string }[])
    .filter((e) => e.orderId === orderId)
    .map((e) => e.eventType);
}

/**
 * Opens a store's live orders stream with a session cookie (on `baseUrl`: any panel replica);
 * `ended` resolves when the server closes it, `text()` is what arrived so far.
 */
export async function openStream(baseUrl: string, cookie: string, merchantId: string) {
  const controller = new AbortController();
  const r = await fetch(`${baseUrl}/panel/api/stores/${merchantId}/orders-stream`, {
    headers: { cookie },
    signal: controller.signal,
  });
  if (r.status !== 200) throw new Error(`stream: ${r.status}`);
  let text = '';
  const reader = r.body!.getReader();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return true;
        text += new TextDecoder().decode(value);
      }
    } catch {
      return false;
    }
  })();
  return { ended, text: () => text, abort: () => controller.abort() };
}

/** true when `p` settles within `ms` */
export const settlesWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
