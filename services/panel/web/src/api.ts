import type { OrderCards } from '@od/contracts/browser';
import type { Lang } from './i18n.ts';
import { apiErrorText } from './words.ts';

/** The panel API client: same-origin JSON, the session cookie, the CSRF token on every change. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; message?: string; errors?: Record<string, string[]> } | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

let csrf = '';
export const setCsrf = (token: string) => {
  csrf = token;
};
/** called when a request answers 401 (session gone): the page returns to sign-in */
let onSignedOut: () => void = () => {};
export const setSignedOutHandler = (fn: () => void) => {
  onSignedOut = fn;
};

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/panel/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (res.status === 401 && path !== '/session') onSignedOut();
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed as T;
}

/** What to tell the merchant about a failed request: the refusal in its words, else `fallback`. */
export const errorText = (err: unknown, lang: Lang, fallback: string): string =>
  err instanceof ApiError ? apiErrorText(lang, err.body?.error, err.message) : fallback;

export const storePath = (merchantId: string, rest = '') => `/stores/${merchantId}${rest}`;

/** The board's newest cards (one page) and the cursor of older ones. */
export async function boardCards(merchantId: string, cursor?: string | null): Promise<OrderCards> {
  const q = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
  return api('GET', storePath(merchantId, `/orders${q}`));
}

/** The API's field errors keyed by the form's field (first path segment), in the merchant's words. */
export function fieldErrors(err: unknown, label: (path: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(err instanceof ApiError) || !err.body?.errors) return out;
  for (const [path, msgs] of Object.entries(err.body.errors)) {
    const head = path.split(/[.[]/)[0];
    const name = label(path);
    const text = msgs.map((m) =>
      m.startsWith(path) ? name + m.slice(path.length) : m.startsWith(head) ? name + m.slice(head.length) : m,
    );
    out[head] = [out[head], ...text].filter(Boolean).join(' ');
  }
  return out;
}
