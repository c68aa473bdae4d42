import dgram from 'node:dgram';
import { isIP } from 'node:net';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`: a value of EGRESS_DNS_SERVERS */
  address: string;
  /** names asked so far (lower case), one entry per query */
  queries: string[];
  close(): Promise<void>;
}

/**
 * A DNS server on 127.0.0.1 (UDP) for tests. `records`: name -> addresses (A and AAAA answered from
 * them, NXDOMAIN for other names). `silent`: reads every query and never answers (a merchant's DNS
 * that hangs).
 */
export async function startDnsServer(
  opts: { records?: Record<string, string[]>; silent?: boolean } = {},
): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (msg, from) => {
    const q = parseQuestion(msg);
    if (!q) return;
    queries.push(q.name);
    if (opts.silent) return;
    const known = opts.records?.[q.name];
    const family = q.type === 1 ? 4 : q.type === 28 ? 6 : 0;
    const answers = (known ?? []).filter((a) => isIP(a) === family);
    socket.send(answer(msg, q.end, known === undefined, answers), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function parseQuestion(msg: Buffer): { name: string; type: number; end: number } | null {
  if (msg.length < 17) return null;
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  if (i + 5 > msg.length) return null;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(i + 1), end: i + 5 };
}

/** The reply: the query's id and question, NXDOMAIN or the answers (TTL 1 s). */
function answer(query: Buffer, questionEnd: number, nxdomain: boolean, addresses: string[]): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(nxdomain ? 0x8183 : 0x8180, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const records = addresses.map((a) => {
    const data = isIP(a) === 4 ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(data.length === 4 ? 1 : 28, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(1, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
}

function ipv6Bytes(a: string): Buffer {
  const [head, tail] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array<string>(tail === undefined ? 0 : 8 - h.length - t.length).fill('0'), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, k) => {
    out.writeUInt16BE(Number.parseInt(g, 16), k * 2);
  });
  return out;
}
