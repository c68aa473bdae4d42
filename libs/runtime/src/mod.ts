export * from './http-app.ts';
export * from './idle-gc.ts';
export * from './ops.ts';
export * from './process-policy.ts';
export * from './service.ts';

import { type Config, ConfigError, loadConfig, SERVICE_NAMES, type ServiceName } from '@od/config';
import { createLogger } from '@od/logger';
import { initTracing, shutdownTracing } from '@od/telemetry';
import { startIdleGc } from './idle-gc.ts';
import { drainAll } from './ops.ts';
import { installProcessPolicy } from './process-policy.ts';
import type { StartOptions } from './service.ts';

export interface ServiceHandle {
  stop(): Promise<void>;
}

export type StartFn<H extends ServiceHandle = ServiceHandle> = (
  config: Config,
  opts?: StartOptions,
) => Promise<H>;

/** How long a failing start is tried again before the process exits (1). */
export const START_RETRY_MS = 60_000;

/** Entry point of a service process: config from env, logger, graceful stop on SIGINT/SIGTERM. */
export async function runMain(name: string, start: StartFn): Promise<void> {
  let config: Config;
  const log = createLogger(name);
  installProcessPolicy(log, name);
  try {
    // production: the service's own keys only (libs/config SERVICE_KEYS)
    const service = SERVICE_NAMES.find((s) => s === name) as ServiceName | undefined;
    config = loadConfig(process.env, (m) => log.warn(m), { service });
  } catch (e) {
    if (e instanceof ConfigError) {
      log.fatal(e.message);
      process.exit(2);
    }
    throw e;
  }
  log.level = config.LOG_LEVEL;
  if (await initTracing(name, process.env, (m) => log.warn(m)))
    log.info('tracing: exporting spans over OTLP');
  let handle: ServiceHandle;
  // A dependency that is not answering yet (PostgreSQL restarting, a JetStream cluster electing its
  // leaders after a restart) fails a start; it is tried again for START_RETRY_MS before the process
  // gives up, so an orchestrator's restart loop (and its back-off) is left for what does not pass.
  const giveUpAt = Date.now() + START_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      handle = await start(config, { log });
      break;
    } catch (e) {
      if (Date.now() >= giveUpAt) {
        log.fatal({ err: e, attempt }, `${name} failed to start`);
        process.exit(1);
      }
      const waitMs = Math.min(5000, 500 * 2 ** (attempt - 1));
      log.warn({ err: e, attempt, waitMs }, `${name} could not start yet; trying again`);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
  log.info(`${name} started`);
  startIdleGc();
  // a supervisor (scripts/start.ts) learns readiness over IPC, whatever the log level
  process.send?.({ type: 'ready', service: name });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${name} stopping`);
    drainAll();
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await handle.stop().catch((e) => log.error({ err: e }, 'stop failed'));
    await shutdownTracing();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
