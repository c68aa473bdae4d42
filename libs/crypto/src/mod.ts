export * from './hmac.ts';
export * from './keyring.ts';
export * from './secret-box.ts';
