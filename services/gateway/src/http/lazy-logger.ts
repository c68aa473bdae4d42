import type { Logger } from '@od/logger';
import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * The request logger fastify makes for every request (bindings: the request id), whose pino child is
 * created only when something is actually logged at an enabled level. A pino child costs a few µs
 * per request (its bindings go through redaction), and a request at the default level logs nothing.
 * A class, not an object of closures: one small object per request (the closures were ~2 KB of the
 * gateway's ~35 KB allocated per request, docs/operations.md "Hot path").
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
  ) {}
  #real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }
  #log(level: Level, args: unknown[]): void {
    if (this.isLevelEnabled(level)) (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }
  isLevelEnabled(level: string): boolean {
    return (this.parent as unknown as Logger).isLevelEnabled(level);
  }
  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}
  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(l: string) {
    this.#real().level = l;
  }
}

export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings) as unknown as FastifyBaseLogger;
}
