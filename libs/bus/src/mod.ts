export * from './caller.ts';
export * from './connect.ts';
export * from './credentials-view.ts';
export * from './event-consumer.ts';
export * from './order-events.ts';
export * from './recipients.ts';
export * from './rpc.ts';
export * from './streams.ts';
