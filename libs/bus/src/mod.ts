export * from './caller.ts';
export * from './connect.ts';
export * from './credentials-view.ts';
export * from './rpc.ts';
export * from './streams.ts';
