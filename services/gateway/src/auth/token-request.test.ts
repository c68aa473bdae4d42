import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBasic, parseForm, parseJson, readTokenRequest, UnreadableBody } from './token-request.ts';

const GOOD = {
  grant_type: 'client_credentials',
  client_id: 'odc_0123456789abcdef01234567',
  client_secret: 's3cr3t',
};
const basic = (id: string, s: string) => `Basic ${Buffer.from(`${id}:${s}`).toString('base64')}`;

describe('token request parsing', () => {
  it('form: round-trips any names and values URLSearchParams encodes', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.string()), (obj) => {
        const parsed = parseForm(Buffer.from(new URLSearchParams(obj).toString()));
        expect({ ...parsed }).toEqual(obj);
      }),
    );
  });

  it('form: bad escapes, invalid UTF-8 and repeated parameters are unreadable', () => {
    expect(() => parseForm('a=%zz')).toThrow(UnreadableBody);
    expect(() => parseForm(Buffer.from([0x61, 0x3d, 0xff, 0xfe]))).toThrow(UnreadableBody);
    expect(() => parseForm('a=1&a=2')).toThrow(UnreadableBody);
    expect(parseForm('')).toEqual({});
  });

  it('json: objects only', () => {
    expect(parseJson('{"a":"b"}')).toEqual({ a: 'b' });
    for (const bad of ['', '[]', 'null', '1', '"x"', '{'])
      expect(() => parseJson(bad)).toThrow(UnreadableBody);
  });

  it('basic: decodes id:secret (the secret may contain colons); malformed is an error', () => {
    expect(parseBasic(undefined)).toBeUndefined();
    expect(parseBasic('Bearer abc')).toBeUndefined();
    expect(parseBasic(basic('id', 'a:b'))).toEqual({ ok: true, clientId: 'id', clientSecret: 'a:b' });
    expect(parseBasic(`basic ${Buffer.from('id:x').toString('base64')}`)).toMatchObject({ ok: true });
    for (const bad of [
      'Basic',
      'Basic @@@',
      basic('', 'x'),
      basic('id', ''),
      `Basic ${Buffer.from('idx').toString('base64')}`,
    ])
      expect(parseBasic(bad)).toEqual({ ok: false });
  });

  it('rules in order: grant_type, then credentials; camelCase in JSON; the body wins over Basic', () => {
    expect(readTokenRequest(GOOD, undefined)).toEqual({
      ok: true,
      clientId: GOOD.client_id,
      clientSecret: 's3cr3t',
    });
    expect(
      readTokenRequest({ grantType: 'client_credentials', clientId: 'a', clientSecret: 'b' }, undefined),
    ).toEqual({ ok: true, clientId: 'a', clientSecret: 'b' });
    expect(readTokenRequest({}, undefined)).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(readTokenRequest({ ...GOOD, grant_type: 'password' }, undefined)).toEqual({
      ok: false,
      error: 'unsupported_grant_type',
    });
    expect(readTokenRequest({ grant_type: 'client_credentials' }, basic('h', 'hs'))).toEqual({
      ok: true,
      clientId: 'h',
      clientSecret: 'hs',
      basic: true,
    });
    expect(readTokenRequest(GOOD, basic('h', 'hs'))).toEqual({
      ok: true,
      clientId: GOOD.client_id,
      clientSecret: GOOD.client_secret,
    });
    expect(
      readTokenRequest({ grant_type: 'client_credentials', client_id: 'x' }, basic('h', 'hs')),
    ).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
    expect(readTokenRequest({ grant_type: 'client_credentials' }, 'Basic ###')).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
    expect(readTokenRequest({ ...GOOD, client_secret: 5 }, undefined)).toMatchObject({
      error: 'invalid_request',
    });
  });

  it('a control character in grant_type, client_id or client_secret: invalid_request naming the field', () => {
    for (const [name, value] of [
      ['grant_type', 'client_credentials\u0000'],
      ['client_id', 'odc_\u0000'],
      ['client_secret', 's\u007f'],
    ])
      expect(readTokenRequest({ ...GOOD, [name]: value }, undefined)).toEqual({
        ok: false,
        error: 'invalid_request',
        description: `${name}: caractere de controle não permitido`,
      });
    // tab, line feed and carriage return are no refused control characters
    expect(readTokenRequest({ ...GOOD, client_secret: 'a\tb' }, undefined)).toMatchObject({ ok: true });
  });
});
