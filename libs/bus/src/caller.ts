import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  diffieHellman,
  hkdfSync,
  type KeyObject,
  randomBytes,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import {
  type CallerContext,
  callerOf,
  FRONT_DOOR_PRINCIPALS,
  type OpSpec,
  type Principal,
  type RpcRequest,
  SIGNER_NAMES,
  type SignerName,
} from '@od/contracts';

/** How long a signed context is valid: enough for one hop on the bus, short enough to bound a replay. */
export const CONTEXT_TTL_MS = 5_000;
/** Clock difference tolerated between the signing and the verifying host. */
const CLOCK_SKEW_MS = 2_000;

// DER wrappers of a raw Ed25519 key (RFC 8410): private = PKCS#8 around the 32-byte seed, public = SPKI
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export const privateKeyFromSeed = (seed: Buffer): KeyObject =>
  createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
export const publicKeyFromRaw = (raw: Buffer): KeyObject =>
  createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
/** The raw 32 bytes of an Ed25519 public key (given it, or the private key it belongs to). */
export const rawPublicKey = (key: KeyObject): Buffer =>
  (
    (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'der', type: 'spki' }) as Buffer
  ).subarray(SPKI_PREFIX.length);

/** Development key of a signer: derived from its name, so every process knows every key. Never in production. */
const devSeed = (name: SignerName) => createHash('sha256').update(`od-dev-rpc-signing-key:${name}`).digest();

export interface RpcKeys {
  /** this process' signing key */
  privateKey: KeyObject;
  /** public keys of every signer this process accepts */
  ring: ReadonlyMap<string, KeyObject>;
  /** MAC keys of this process' pairs (pairKeys): toward each verifier, and from each signer */
  mac: PairKeys;
}

export interface PairKeys {
  /** key of (this signer -> verifier), by verifier name */
  to: ReadonlyMap<string, Buffer>;
  /** key of (signer -> this verifier), by signer name */
  from: ReadonlyMap<string, Buffer>;
}

// X25519 DER wrappers (RFC 8410), and the Ed25519 -> X25519 maps (RFC 7748 section 4.1; what
// libsodium's crypto_sign_ed25519_*_to_curve25519 do): the same keys give every pair a shared secret
const X25519_PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI = Buffer.from('302a300506032b656e032100', 'hex');
const P = 2n ** 255n - 19n;
const le = (b: Buffer) => BigInt(`0x${Buffer.from(b).reverse().toString('hex') || '0'}`);
const toLe = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse();
function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  for (let x = b % P, k = e; k > 0n; k >>= 1n, x = (x * x) % P) if (k & 1n) r = (r * x) % P;
  return r;
}

/** X25519 private key of an Ed25519 seed: the first half of SHA-512(seed) (X25519 clamps it). */
const x25519Private = (seed: Buffer): KeyObject =>
  createPrivateKey({
    key: Buffer.concat([X25519_PKCS8, createHash('sha512').update(seed).digest().subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });

/** X25519 public key of an Ed25519 public key: u = (1 + y) / (1 - y) mod p. */
export function x25519PublicOf(ed: KeyObject): KeyObject {
  const raw = Buffer.from(rawPublicKey(ed));
  raw[31] &= 0x7f; // the sign of x does not matter to u
  const y = le(raw);
  const u = ((1n + y) * modPow((1n - y + P) % P, P - 2n)) % P;
  return createPublicKey({ key: Buffer.concat([X25519_SPKI, toLe(u)]), format: 'der', type: 'spki' });
}

/**
 * One MAC key per ordered pair (signer -> verifier), from X25519 between the two processes' keys:
 * only those two can compute it. A verifier that leaks its keys can forge requests only to itself,
 * never toward another service (which would need that service's or the signer's private key).
 */
export function pairKeys(self: SignerName, seed: Buffer, ring: ReadonlyMap<string, KeyObject>): PairKeys {
  const mine = x25519Private(seed);
  const to = new Map<string, Buffer>();
  const from = new Map<string, Buffer>();
  for (const [peer, edPublic] of ring) {
    const shared = diffieHellman({ privateKey: mine, publicKey: x25519PublicOf(edPublic) });
    const derive = (a: string, b: string) =>
      Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), `od-rpc-mac:${a}>${b}`, 32));
    to.set(peer, derive(self, peer));
    from.set(peer, derive(peer, self));
  }
  return { to, from };
}

function decodeKey(text: string, what: string): Buffer {
  const raw = Buffer.from(text.trim(), 'base64url');
  if (raw.length !== 32) throw new Error(`${what}: expected 32 bytes in base64url, got ${raw.length}`);
  return raw;
}

/** `name=<base64url raw public key>,...` (the format of RPC_PUBLIC_KEYS). */
export function parseKeyRing(text: string): Map<string, KeyObject> {
  const ring = new Map<string, KeyObject>();
  for (const entry of text.split(',').filter((e) => e.trim())) {
    const [name, key] = entry.split('=', 2).map((s) => s.trim());
    if (!(SIGNER_NAMES as readonly string[]).includes(name) || !key)
      throw new Error(
        `RPC_PUBLIC_KEYS: bad entry "${name}" (expected <signer>=<key>, signers: ${SIGNER_NAMES})`,
      );
    ring.set(name, publicKeyFromRaw(decodeKey(key, `RPC_PUBLIC_KEYS ${name}`)));
  }
  return ring;
}

/**
 * Keys of one signer process: RPC_SIGNING_KEY (base64url 32-byte Ed25519 seed) and RPC_PUBLIC_KEYS,
 * or development keys derived from the signer names when unset (config warns; production refuses).
 */
export function loadRpcKeys(
  name: SignerName,
  env: { RPC_SIGNING_KEY?: string; RPC_PUBLIC_KEYS?: string } = {},
): RpcKeys {
  const seed = env.RPC_SIGNING_KEY ? decodeKey(env.RPC_SIGNING_KEY, 'RPC_SIGNING_KEY') : devSeed(name);
  const privateKey = privateKeyFromSeed(seed);
  const ring = env.RPC_PUBLIC_KEYS
    ? parseKeyRing(env.RPC_PUBLIC_KEYS)
    : new Map(SIGNER_NAMES.map((n) => [n, createPublicKey(privateKeyFromSeed(devSeed(n)))] as const));
  return { privateKey, ring, mac: pairKeys(name, seed, ring) };
}

/** A new key pair in the env formats (odctl rpc-keys). */
export function generateRpcKeyPair(): { signingKey: string; publicKey: string } {
  const seed = randomBytes(32);
  return {
    signingKey: seed.toString('base64url'),
    publicKey: rawPublicKey(privateKeyFromSeed(seed)).toString('base64url'),
  };
}

const enc = new TextEncoder();

export interface SignedRequest {
  payload: Uint8Array;
  /** value of the SIGNATURE_HEADER: `<signer>.<Ed25519 signature>` or `mac.<signer>.<HMAC>` */
  signature: string;
}

/** Prefix of a MAC proof in the SIGNATURE_HEADER (no signer is named `mac`). */
const MAC = 'mac.';
// a KeyObject made once per pair key: createHmac with a raw Buffer key costs ~11 µs, with the
// KeyObject ~2 µs (Node 24; the key's validation and import are paid once)
const keyObjects = new WeakMap<Buffer, KeyObject>();
function hmac(key: Buffer, payload: Uint8Array): Buffer {
  let k = keyObjects.get(key);
  if (!k) {
    k = createSecretKey(key);
    keyObjects.set(key, k);
  }
  return createHmac('sha256', k).update(payload).digest();
}

/**
 * Signs `req` for one subject on behalf of `principal`: the context (issuer, principal, request id,
 * expiry, subject) goes into the payload and the whole payload is signed. This is the front-door
 * API: the gateway and the panel back end call it (through their RpcClient) after authenticating.
 */
export function signContext(
  signer: { name: SignerName; privateKey: KeyObject; mac?: Pick<PairKeys, 'to'> },
  subject: string,
  req: Omit<RpcRequest, 'ctx' | 'auth'>,
  principal: Principal,
  opts: { now?: number; ttlMs?: number; verifier?: string } = {},
): SignedRequest {
  const ctx: CallerContext = {
    iss: signer.name,
    principal,
    rid: req.traceId,
    exp: (opts.now ?? Date.now()) + (opts.ttlMs ?? CONTEXT_TTL_MS),
    to: subject,
  };
  const payload = enc.encode(JSON.stringify({ ...req, ctx }));
  // the pair's MAC when the verifier is known (the serving service): ~2 µs instead of ~150 µs for
  // an Ed25519 signature and its verification; same context, same checks (bench/rpc-sign.ts)
  const key = opts.verifier ? signer.mac?.to.get(opts.verifier) : undefined;
  if (key) return { payload, signature: `${MAC}${signer.name}.${hmac(key, payload).toString('base64url')}` };
  const sig = sign(null, payload, signer.privateKey).toString('base64url');
  return { payload, signature: `${signer.name}.${sig}` };
}

export type Refusal =
  | 'unsigned'
  | 'unknown_signer'
  | 'bad_signature'
  | 'malformed'
  | 'wrong_subject'
  | 'expired'
  | 'principal_not_allowed_for_signer'
  | 'caller_not_allowed';

export type Verified =
  | { ok: true; req: RpcRequest; principal: Principal }
  | { ok: false; reason: Refusal; traceId?: string };

function signerMayAssert(iss: SignerName, p: Principal): boolean {
  if (p.kind === 'service') return p.service === iss;
  return FRONT_DOOR_PRINCIPALS[iss]?.includes(p.kind) ?? false;
}

/**
 * Verifies a signed request for `op` received on `subject`: signature of a known signer over the
 * exact payload, context bound to this subject and not expired, a principal that signer may assert,
 * and a caller the op accepts. `payload` is parsed only after the signature holds.
 */
export function verifyRequest(
  keys: Pick<RpcKeys, 'ring'> & { mac?: Pick<PairKeys, 'from'> },
  op: Pick<OpSpec, 'callers'>,
  subject: string,
  payload: Uint8Array,
  signature: string | undefined,
  now = Date.now(),
): Verified {
  if (!signature) return { ok: false, reason: 'unsigned' };
  const isMac = signature.startsWith(MAC);
  const proof = isMac ? signature.slice(MAC.length) : signature;
  const dot = proof.indexOf('.');
  const issuer = dot > 0 ? proof.slice(0, dot) : '';
  if (isMac) {
    const key = keys.mac?.from.get(issuer);
    if (!key) return { ok: false, reason: 'unknown_signer' };
    const mac = Buffer.from(proof.slice(dot + 1), 'base64url');
    const want = hmac(key, payload);
    if (mac.length !== want.length || !timingSafeEqual(mac, want))
      return { ok: false, reason: 'bad_signature' };
  } else {
    const key = keys.ring.get(issuer);
    if (!key) return { ok: false, reason: 'unknown_signer' };
    const sig = Buffer.from(proof.slice(dot + 1), 'base64url');
    if (sig.length !== 64 || !verify(null, payload, key, sig)) return { ok: false, reason: 'bad_signature' };
  }
  let req: RpcRequest;
  try {
    req = JSON.parse(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const ctx = req?.ctx;
  if (!ctx || typeof ctx !== 'object' || !ctx.principal || ctx.iss !== issuer || ctx.rid !== req.traceId)
    return { ok: false, reason: 'malformed', traceId: req?.traceId };
  if (ctx.to !== subject) return { ok: false, reason: 'wrong_subject', traceId: req.traceId };
  if (
    !(
      typeof ctx.exp === 'number' &&
      ctx.exp + CLOCK_SKEW_MS >= now &&
      ctx.exp - now <= CONTEXT_TTL_MS + CLOCK_SKEW_MS
    )
  )
    return { ok: false, reason: 'expired', traceId: req.traceId };
  if (!signerMayAssert(ctx.iss, ctx.principal))
    return { ok: false, reason: 'principal_not_allowed_for_signer', traceId: req.traceId };
  if (op.callers !== 'any' && !op.callers.includes(callerOf(ctx.principal)))
    return { ok: false, reason: 'caller_not_allowed', traceId: req.traceId };
  return { ok: true, req, principal: ctx.principal };
}
