export * from './feed.ts';
export * from './fixtures.ts';
export * from './https-receiver.ts';
export * from './infra.ts';
export * from './orders.ts';
export * from './schema-agreement.ts';
export * from './stack.ts';
export * from './tokens.ts';
