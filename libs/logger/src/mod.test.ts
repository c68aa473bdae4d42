import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './mod.ts';

/** Every secret the platform handles, logged under the names it travels by, never reaches a line. */
describe('log redaction', () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    return { log: createLogger('test', 'info', stream), lines };
  };
  // written out here, not imported: the test states which names must never leak
  const KEYS = (
    'apiKey api_key setupToken setup_token csrfToken csrf_token cookie Cookie password newPassword ' +
    'passwordHash clientSecret client_secret webhookSecret accessToken access_token token secret ' +
    'authorization Authorization'
  ).split(' ');
  const HEADERS = 'authorization proxy-authorization cookie set-cookie x-api-key x-csrf-token'.split(' ');

  it('redacts each secret key at the top level and one object down', () => {
    const { log, lines } = capture();
    for (const k of KEYS) {
      log.info({ [k]: `s3cr3t-top-${k}` }, 'top');
      log.info({ user: { [k]: `s3cr3t-nested-${k}` } }, 'nested');
    }
    expect(lines).toHaveLength(KEYS.length * 2);
    for (const line of lines) expect(line).not.toMatch(/s3cr3t/);
    expect(lines.join('')).toContain('[redacted]');
  });

  it('redacts credential headers of a request or response, however deep the log puts them', () => {
    const { log, lines } = capture();
    for (const h of HEADERS) {
      log.info({ headers: { [h]: `s3cr3t-h-${h}`, accept: 'json' } }, 'headers');
      log.info({ req: { headers: { [h]: `s3cr3t-req-${h}` } } }, 'req');
      log.info({ err: { response: { headers: { [h]: `s3cr3t-deep-${h}` } } } }, 'deep');
    }
    for (const line of lines) expect(line).not.toMatch(/s3cr3t/);
    expect(lines[0]).toContain('"accept":"json"');
  });
});
