import { CONTROL_CHARACTER_MESSAGE, CONTROL_CHARACTERS, GRANT_TYPE } from '@od/contracts';

/**
 * Pure parsing of a token request (SPEC "Token request"): form or JSON body, snake_case or
 * camelCase in JSON, optional `Authorization: Basic`. The body's credentials win over the header's.
 */

export class UnreadableBody extends Error {
  readonly statusCode = 400;
}

/** Strict `application/x-www-form-urlencoded`: valid UTF-8, valid percent-escapes, no repeated names. */
export function parseForm(raw: Buffer | string): Record<string, string> {
  let text: string;
  try {
    text = typeof raw === 'string' ? raw : new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new UnreadableBody('O corpo não é UTF-8 válido.');
  }
  const out: Record<string, string> = Object.create(null);
  if (text.trim() === '') return out;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw new UnreadableBody('Codificação de formulário inválida.');
    }
    if (name in out) throw new UnreadableBody(`Parâmetro repetido: ${name.slice(0, 40)}.`);
    out[name] = value;
  }
  return out;
}

export function parseJson(raw: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new UnreadableBody('JSON inválido.');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new UnreadableBody('O corpo JSON deve ser um objeto.');
  return v as Record<string, unknown>;
}

export type TokenRequestResult =
  /** `basic`: the credentials came from `Authorization: Basic` (its 401 names the scheme) */
  | { ok: true; clientId: string; clientSecret: string; basic?: true }
  | { ok: false; error: 'invalid_request'; description: string }
  | { ok: false; error: 'unsupported_grant_type' };

const field = (
  body: Record<string, unknown>,
  snake: string,
  camel: string,
): { value?: string; present: boolean; bad: boolean; control?: string } => {
  const v = body[snake] !== undefined ? body[snake] : body[camel];
  if (v === undefined || v === null || v === '') return { present: false, bad: false };
  if (typeof v !== 'string') return { present: true, bad: true };
  // the token family's own form of the rule every request follows (CONTROL_CHARACTERS)
  if (CONTROL_CHARACTERS.test(v))
    return { present: true, bad: false, control: `${snake}: ${CONTROL_CHARACTER_MESSAGE}` };
  return { value: v, present: true, bad: false };
};

/** Decodes `Basic base64(client_id:client_secret)`; undefined when the header is not Basic. */
export function parseBasic(
  header: string | undefined,
): { ok: true; clientId: string; clientSecret: string } | { ok: false } | undefined {
  if (!header) return undefined;
  const m = /^\s*basic(?:\s+(.*))?$/i.exec(header);
  if (!m) return undefined;
  const b64 = (m[1] ?? '').trim();
  if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 === 1) return { ok: false };
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return { ok: false };
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return { ok: false };
  return { ok: true, clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

/** Applies the rules in SPEC order: readable body, grant_type, then client credentials. */
export function readTokenRequest(
  body: Record<string, unknown> | undefined,
  authorization: string | undefined,
): TokenRequestResult {
  const b = body ?? {};
  const basic = parseBasic(authorization);
  if (basic && !basic.ok)
    return { ok: false, error: 'invalid_request', description: 'Cabeçalho Authorization Basic malformado.' };
  const grant = field(b, 'grant_type', 'grantType');
  if (grant.bad) return { ok: false, error: 'invalid_request', description: 'grant_type deve ser um texto.' };
  if (grant.control) return { ok: false, error: 'invalid_request', description: grant.control };
  if (!grant.present)
    return { ok: false, error: 'invalid_request', description: 'grant_type é obrigatório.' };
  if (grant.value !== GRANT_TYPE) return { ok: false, error: 'unsupported_grant_type' };
  const id = field(b, 'client_id', 'clientId');
  const secret = field(b, 'client_secret', 'clientSecret');
  if (id.bad || secret.bad)
    return {
      ok: false,
      error: 'invalid_request',
      description: 'client_id e client_secret devem ser textos.',
    };
  const control = id.control ?? secret.control;
  if (control) return { ok: false, error: 'invalid_request', description: control };
  // the body wins when it carries credentials; otherwise the Basic header
  if (id.present || secret.present) {
    if (!id.present) return { ok: false, error: 'invalid_request', description: 'client_id é obrigatório.' };
    if (!secret.present)
      return { ok: false, error: 'invalid_request', description: 'client_secret é obrigatório.' };
    return { ok: true, clientId: id.value as string, clientSecret: secret.value as string };
  }
  if (basic?.ok) return { ...basic, basic: true };
  return {
    ok: false,
    error: 'invalid_request',
    description: 'client_id e client_secret são obrigatórios (no corpo ou em Authorization Basic).',
  };
}
