import type { Msg, MsgHdrs } from '@nats-io/transport-node';

/**
 * NATS message headers of the RPC path, without nats.js's MsgHdrs on every request. Its `set`
 * rebuilds the key through an array of char codes and a new RegExp per value, `publish` then
 * stringifies and encodes it, and reading `msg.headers` splits and re-canonicalizes the whole block:
 * ~3 KB of garbage per call at the gateway and ~2 KB at the serving service (docs/operations.md "Hot
 * path"). Same bytes on the wire, same values read (nats-core 3.x, wire-headers.test.ts compares
 * both ways).
 */

const te = new TextEncoder();
const td = new TextDecoder();
/** printable ASCII except ':' (RFC 822 field names, as nats.js checks them) */
const HEADER_NAME = /^[!-9;-~]+$/;
const CR_LF = /[\r\n]/;

/** Headers encoded once, for `publish`/`respond` (nats.js encodes a message's headers with `encode()` only). */
export interface EncodedHeaders {
  /** what `publish` takes as headers */
  readonly nats: MsgHdrs;
  /** bytes on the wire (what max_payload counts beside the data) */
  readonly length: number;
}

/** `NATS/1.0\r\nk: v\r\n...\r\n`: what nats.js writes for these headers (values trimmed, CR/LF refused). */
export function encodeHeaders(h: Record<string, string>): EncodedHeaders {
  let s = 'NATS/1.0';
  for (const k in h) {
    const v = h[k];
    if (!HEADER_NAME.test(k)) throw new Error(`header name ${JSON.stringify(k)} is not valid`);
    if (CR_LF.test(v)) throw new Error(`header ${k}: values cannot contain \\r or \\n`);
    s += `\r\n${k}: ${v.trim()}`;
  }
  const bytes = te.encode(`${s}\r\n\r\n`);
  return { nats: { encode: () => bytes } as unknown as MsgHdrs, length: bytes.length };
}

type RawMsg = { _msg?: { hdr?: number }; _rdata?: Uint8Array };

/**
 * Calls `each(name, value)` for every header line of `msg` in order (a repeated header once per
 * line: the first is what `msg.headers.get` gives), values trimmed, until `each` returns true. Read
 * from the raw header block; through `msg.headers` when the block cannot be read.
 */
export function forEachHeader(msg: Msg, each: (name: string, value: string) => boolean | undefined): void {
  const raw = msg as unknown as RawMsg;
  const hdr = raw._msg?.hdr;
  if (typeof hdr !== 'number' || !(raw._rdata instanceof Uint8Array)) {
    if (msg.headers) for (const [k, v] of msg.headers) for (const x of v) if (each(k, x)) return;
    return;
  }
  if (hdr < 0) return;
  const text = td.decode(raw._rdata.subarray(0, hdr));
  // the first line is the version (and a status code): headers follow, one per line
  for (let at = text.indexOf('\r\n'); at >= 0; ) {
    const from = at + 2;
    at = text.indexOf('\r\n', from);
    const to = at < 0 ? text.length : at;
    const colon = text.indexOf(':', from);
    if (colon > from && colon < to && each(text.slice(from, colon), text.slice(colon + 1, to).trim())) return;
  }
}

/** The first value of header `name` of `msg`, undefined when absent. */
export function headerOf(msg: Msg, name: string): string | undefined {
  let out: string | undefined;
  forEachHeader(msg, (k, v) => {
    if (k !== name) return false;
    out = v;
    return true;
  });
  return out;
}

/**
 * The W3C trace context `msg` carries (`traceparent`, `tracestate`: their first values) as a
 * propagator's carrier, read in one pass over the raw header block; undefined without a
 * `traceparent` (an unsampled request carries none).
 */
export function traceCarrierOf(msg: Msg): { get(key: string): string | undefined } | undefined {
  let traceparent: string | undefined;
  let tracestate: string | undefined;
  forEachHeader(msg, (k, v) => {
    if (k === 'traceparent') traceparent ??= v;
    else if (k === 'tracestate') tracestate ??= v;
    return false;
  });
  if (traceparent === undefined) return undefined;
  return { get: (k) => (k === 'traceparent' ? traceparent : k === 'tracestate' ? tracestate : undefined) };
}
