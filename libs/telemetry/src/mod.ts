export * from './hooks.ts';
export * from './metrics.ts';
export * from './tracing.ts';
