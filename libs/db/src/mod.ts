export * from './migrate.ts';
export * from './pool.ts';
export * from './schema-check.ts';
export * from './tx.ts';
export * from './unavailable.ts';
