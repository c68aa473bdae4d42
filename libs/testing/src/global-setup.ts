import type { TestProject } from 'vitest/node';
import { resolveInfra } from './infra.ts';

export default async function setup(project: TestProject) {
  const { infra, stop } = await resolveInfra();
  process.env.DATABASE_URL = infra.databaseUrl;
  process.env.REDIS_URL = infra.redisUrl;
  process.env.NATS_URL = infra.natsUrl;
  project.provide('infra', infra);
  return stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    infra: import('./infra.ts').Infra;
  }
}
