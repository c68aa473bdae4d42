/**
 * Every NATS name in one place. All names carry the deployment prefix (NATS_PREFIX) so that
 * several stacks (test runs) can share one NATS server without seeing each other.
 */
export type ServiceName = 'auth' | 'catalog' | 'orders' | 'feed' | 'webhook' | 'panel';

export function names(prefix: string) {
  return {
    /** request/reply subject of one operation of a service; served with queue group = service name */
    rpc: (service: ServiceName, op: string) => `${prefix}.rpc.${service}.${op}`,
    /** JetStream stream holding every order event; subject per merchant keeps per-store order */
    orderEventsStream: `${prefix.toUpperCase()}_ORDER_EVENTS`,
    orderEventSubject: (merchantId: string) => `${prefix}.events.order.${merchantId}`,
    orderEventSubjects: `${prefix}.events.order.>`,
    /** KV bucket: key = clientId, value = CredentialRecord JSON (never a secret) */
    credentialsBucket: `${prefix}_credentials`,
    /** core NATS broadcast by catalog replicas after a store or menu edit (payload: merchantId): cache invalidation */
    catalogChanged: `${prefix}.internal.catalog.changed`,
    /**
     * core NATS broadcast by feed replicas after a commit that can make entries pollable (payload:
     * comma-separated store ids, empty = every store): the gateways' empty-poll cache forgets them
     */
    feedPending: `${prefix}.internal.feed.pending`,
    /** KV bucket of live gateway replicas: key = replica id, refreshed by heartbeats, expires when they stop */
    gatewaysBucket: `${prefix}_gateways`,
    /** core NATS subject where one gateway replica confirms it has seen a credentials revision */
    gatewaySync: (replicaId: string) => `${prefix}.gateway.sync.${replicaId}`,
    /** Redis key prefix */
    redis: (key: string) => `${prefix}:${key}`,
  };
}

export type Names = ReturnType<typeof names>;
