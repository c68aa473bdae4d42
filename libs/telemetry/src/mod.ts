export * from './metrics.ts';
export * from './tracing.ts';
