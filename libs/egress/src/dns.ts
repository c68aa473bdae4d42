import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface EgressDnsOptions {
  /** `ip`, `ip:port` or `[ipv6]:port`; default the system's (/etc/resolv.conf) */
  servers?: readonly string[];
  /** the whole lookup of one name (A and AAAA together) */
  timeoutMs?: number;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a name for an outgoing call. Rejects on any failure (the caller shows one neutral text). */
export interface EgressDns {
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

export const DEFAULT_DNS_TIMEOUT_MS = 3_000;
/** c-ares asks each server this often within the budget (its per-try timeout grows between rounds). */
const TRIES = 2;

/**
 * Outgoing-call DNS on c-ares (`dns.Resolver`), not `dns.lookup`: lookup runs getaddrinfo on libuv's
 * 4 shared threads, so a few names whose DNS never answers would stall every lookup, file read and
 * crypto job of the process. c-ares runs on the event loop's own sockets, and every lookup has a
 * deadline of its own. Names are resolved as given (no search list, /etc/hosts not read);
 * `localhost` and `*.localhost` are 127.0.0.1 (RFC 6761) without a query.
 */
export function createEgressDns(o: EgressDnsOptions = {}): EgressDns {
  const budget = o.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  // c-ares waits t, then 2t: the two rounds fit in the budget
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(budget / 3)), tries: TRIES });
  if (o.servers?.length) resolver.setServers([...o.servers]);
  return {
    async resolve(hostname) {
      const name = hostname.replace(/\.$/, '').toLowerCase();
      if (name === 'localhost' || name.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }];
      if (isIP(name)) return [{ address: name, family: isIP(name) as 4 | 6 }];
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })),
          budget,
        );
      });
      try {
        const [v4, v6] = await Promise.race([
          Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]),
          deadline,
        ]);
        const out: ResolvedAddress[] = [
          ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
          ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
        ];
        if (out.length) return out;
        throw v4.status === 'rejected'
          ? v4.reason
          : Object.assign(new Error('no address'), { code: 'ENODATA' });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

let shared: EgressDns | undefined;
/** The process's default: system servers, default budget (callers pass their configured one). */
export const defaultEgressDns = (): EgressDns => {
  shared ??= createEgressDns();
  return shared;
};
