import { tokenRequest } from '@od/testing';

/** The JSON body of a 2xx answer; anything else throws with the status and the body. */
export async function okJson<T>(r: Response): Promise<T> {
  if (r.status >= 300) throw new Error(`${r.url} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** An access token of a credential (client_credentials at the token endpoint). */
export async function accessToken(
  publicUrl: string,
  clientId: string,
  clientSecret: string,
): Promise<string> {
  const t = await fetch(`${publicUrl}/oauth/token`, {
    ...tokenRequest(clientId, clientSecret),
    signal: AbortSignal.timeout(30_000),
  });
  const tb = (await t.json()) as { access_token?: string };
  if (t.status !== 200 || !tb.access_token)
    throw new Error(`token endpoint answered ${t.status}: ${JSON.stringify(tb)}`);
  return tb.access_token;
}

/** A POLLING credential of a store with orders:read and orders:write, and its access token. */
export async function pollingCredential(
  publicUrl: string,
  admin: (method: string, path: string, body?: unknown) => Promise<Response>,
  merchantId: string,
  name: string,
): Promise<{ clientId: string; clientSecret: string; token: string }> {
  const r = await admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
    name,
    scopes: ['orders:read', 'orders:write'],
    deliveryMode: 'POLLING',
  });
  if (r.status >= 300) throw new Error(`creating a credential answered ${r.status}: ${await r.text()}`);
  const c = (await r.json()) as { clientId: string; clientSecret: string };
  return { ...c, token: await accessToken(publicUrl, c.clientId, c.clientSecret) };
}
