export * from './connect.ts';
export * from './rpc.ts';
export * from './streams.ts';
export * from './credentials-view.ts';
