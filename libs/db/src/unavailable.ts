/**
 * Whether an error means "the database cannot be used right now" (refused, dropped or timed-out
 * connection, server starting up or shutting down, exhausted pool) rather than a bug or a bad
 * query. Such errors become 503 + Retry-After (retryable), never 500. Looks through `cause` chains
 * (Prisma's driver adapter wraps the `pg` error).
 */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** SQLSTATE: connection exceptions, shutdown / starting up, too many connections, statement timeout */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
/** Prisma: can't reach server, timeouts, server closed the connection, pool timeout */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Prisma driver-adapter error kinds */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionAlreadyClosed',
]);
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|connect ECONNREFUSED|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Client was closed and is not queryable|Cannot use a pool after calling end/i;

export function isDbUnavailable(e: unknown): boolean {
  const seen = new Set<unknown>();
  let cur: unknown = e;
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur);
    const o = cur as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const code = typeof o.code === 'string' ? o.code : '';
    if (NET_CODES.has(code) || PRISMA_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))
      return true;
    if (typeof o.kind === 'string' && ADAPTER_KINDS.has(o.kind)) return true;
    if (typeof o.message === 'string' && MESSAGES.test(o.message)) return true;
    // AggregateError (node's happy-eyeballs connect) carries the real causes in `errors`
    if (Array.isArray(o.errors) && o.errors.some((x) => isDbUnavailable(x))) return true;
    cur = o.cause;
  }
  return false;
}
