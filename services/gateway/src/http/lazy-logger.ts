import type { Logger } from '@od/logger';
import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = FastifyBaseLogger['info'];

/**
 * The request logger fastify makes for every request (bindings: the request id), created only when
 * something is actually logged at an enabled level. A pino child costs a few µs per request (its
 * bindings go through redaction), and a request at the default level logs nothing.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
): FastifyBaseLogger {
  const enabled = (l: string) => (parent as unknown as Logger).isLevelEnabled(l);
  let child: FastifyBaseLogger | undefined;
  const real = () => {
    child ??= parent.child(bindings);
    return child;
  };
  const at =
    (level: Level): LogFn =>
    (...args: unknown[]) => {
      if (enabled(level)) (real()[level] as (...a: unknown[]) => void)(...args);
    };
  return {
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: (b, o) => real().child(b, o),
    isLevelEnabled: enabled,
    get level() {
      return child?.level ?? parent.level;
    },
    set level(l) {
      real().level = l;
    },
  } as FastifyBaseLogger;
}
