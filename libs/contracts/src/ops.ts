/**
 * Service-to-service RPC operations whose shapes other services depend on. Each is served at
 * `names(prefix).rpc(<service>, <op>)`; bodies are JSON in `RpcRequest.body`.
 * Route-specific ops (one per gateway route) are private to their service and its gateway file.
 */
export const INTERNAL_OPS = {
  /** catalog: body { merchantId } -> 200 MerchantSnapshot | 404 */
  merchantSnapshot: 'internal.merchantSnapshot',
  /** auth: body { merchantId } -> 200 CredentialRecord[] (authoritative list, every status) */
  credentialsByMerchant: 'internal.credentialsByMerchant',
  /** auth: body { clientId } -> 200 { secrets: string[] } (whsec_..., newest first; two during rotation) | 404 */
  webhookSecrets: 'internal.webhookSecrets',
} as const;

/** What orders needs of a store at intake: its public Merchant, the test flag and its current menu. */
export interface MerchantSnapshot {
  merchant: { id: string; name: string; [k: string]: unknown };
  test: boolean;
  /** the public menu shape (SPEC Menu), the single menu of the store; null when none was set */
  menu: {
    id: string;
    items: {
      id: string;
      name: string;
      externalCode: string;
      status: string;
      price: { value: number; originalValue: number | null; currency: string };
      optionGroupIds: string[];
    }[];
    optionGroups: {
      id: string;
      name: string;
      minPermitted: number;
      maxPermitted: number;
      options: {
        id: string;
        name: string;
        externalCode: string;
        status: string;
        price: { value: number; originalValue: number | null; currency: string };
      }[];
    }[];
  } | null;
}
