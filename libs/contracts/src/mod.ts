export * from './subjects.ts';
export * from './rpc.ts';
export * from './events.ts';
export * from './credentials.ts';
export * from './ids.ts';
export * from './ops.ts';
export * from './merchant.ts';
export * from './menu.ts';
