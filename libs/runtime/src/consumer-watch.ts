import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { gaugeSources } from '@od/telemetry';
import type { OpsListener } from './ops.ts';

/**
 * A durable JetStream consumer the service depends on: `/readyz` fails until the service says it is
 * attached (and while its info cannot be read), and its pending / ack-pending counts are read from
 * JetStream at each scrape. Returns `attached()` and the unregister function.
 */
export function watchConsumer(nc: NatsConnection, stream: string, consumer: string, ops: OpsListener) {
  let attached = false;
  const info = async () => (await jetstreamManager(nc)).consumers.info(stream, consumer);
  ops.check(`consumer:${consumer}`, async () => attached && Boolean(await info()));
  const offPending = gaugeSources.consumerPending(async () => [[{ consumer }, (await info()).num_pending]]);
  const offAck = gaugeSources.consumerAckPending(async () => [
    [{ consumer }, (await info()).num_ack_pending],
  ]);
  return {
    attached: () => {
      attached = true;
    },
    stop: () => {
      offPending();
      offAck();
    },
  };
}
