export * from './infra.ts';
export * from './fixtures.ts';
export * from './stack.ts';
export * from './schema-agreement.ts';
export * from './tokens.ts';
export * from './https-receiver.ts';
