/** The panel API client: same-origin JSON, the session cookie, the CSRF token on every change. */
export interface Store {
  merchantId: string;
  name: string;
  role: 'OWNER' | 'STAFF';
  test: boolean;
}
export interface Me {
  email: string;
  csrfToken: string;
  stores: Store[];
}

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

export const storePath = (merchantId: string, rest = '') => `/stores/${merchantId}${rest}`;
