import type { NatsConnection } from '@nats-io/transport-node';
import { createRpcClient, loadRpcKeys, type RpcClient } from '@od/bus';
import type { Config } from '@od/config';
import { names, type SignerName } from '@od/contracts';

/**
 * A signed RPC client on `nc` playing signer `as` (a front door or a service) with the stack's keys
 * (development keys unless the config names others). For tests that talk to a service directly.
 */
export function testRpc(nc: NatsConnection, config: Config, as: SignerName): RpcClient {
  return createRpcClient(nc, names(config.NATS_PREFIX), as, loadRpcKeys(as, config));
}
