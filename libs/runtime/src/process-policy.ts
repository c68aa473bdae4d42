import type { Logger } from '@od/logger';

/** Exit code of a process that stopped on an error nobody handled (the orchestrator restarts it). */
export const FATAL_EXIT_CODE = 70;

/**
 * Process policy for errors nobody handled (README "Process policy"): an uncaught exception or an
 * unhandled rejection is logged once at fatal level (with the trace id when the error carries one)
 * and the process exits non-zero at once, for the supervisor to start a fresh one.
 *
 * Why not log and continue: every expected failure is already caught where it happens (a handler's
 * error or a reply the bus cannot carry is answered, see @od/bus rpc.ts), so what reaches here is
 * a bug whose effects are unknown (a transaction left open, a lock or a consumer never released).
 * Durable state lives in PostgreSQL and JetStream, so a restart loses nothing.
 */
export function installProcessPolicy(
  log: Logger,
  name: string,
  exit: (code: number) => void = process.exit,
): void {
  process.on('uncaughtException', (err, origin) => {
    const traceId = (err as { traceId?: unknown } | undefined)?.traceId;
    log.fatal(
      { err, origin, traceId },
      `${name}: ${origin === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception'}, exiting`,
    );
    exit(FATAL_EXIT_CODE);
  });
}
