export * from './http-app.ts';
export * from './ops.ts';
export * from './process-policy.ts';
export * from './service.ts';

import { type Config, ConfigError, loadConfig } from '@od/config';
import { createLogger, type Logger } from '@od/logger';
import { initTracing, shutdownTracing } from '@od/telemetry';
import { drainAll } from './ops.ts';
import { installProcessPolicy } from './process-policy.ts';

export interface ServiceHandle {
  stop(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
}

export type StartFn<H extends ServiceHandle = ServiceHandle> = (
  config: Config,
  opts?: StartOptions,
) => Promise<H>;

/** Entry point of a service process: config from env, logger, graceful stop on SIGINT/SIGTERM. */
export async function runMain(name: string, start: StartFn): Promise<void> {
  let config: Config;
  const log = createLogger(name);
  installProcessPolicy(log, name);
  try {
    config = loadConfig(process.env, (m) => log.warn(m));
  } catch (e) {
    if (e instanceof ConfigError) {
      log.fatal(e.message);
      process.exit(2);
    }
    throw e;
  }
  log.level = config.LOG_LEVEL;
  if (initTracing(name, process.env, (m) => log.warn(m))) log.info('tracing: exporting spans over OTLP');
  let handle: ServiceHandle;
  try {
    handle = await start(config, { log });
  } catch (e) {
    log.fatal({ err: e }, `${name} failed to start`);
    process.exit(1);
  }
  log.info(`${name} started`);
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
