export * from './hooks.ts';
export * from './http.ts';
export * from './metrics.ts';
export * from './tracing.ts';
