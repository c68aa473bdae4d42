import createClient from 'openapi-fetch';
import type { paths } from './generated/schema.d.ts';

/**
 * A client generated from the official Open Delivery 1.4.0 document (types by openapi-typescript,
 * `pnpm generate`; calls by openapi-fetch): what a point of sale built for the standard uses.
 * Tests drive the platform with it to prove such a client works unchanged.
 */
export type OdPaths = paths;
export function openDeliveryClient(baseUrl: string, token?: string) {
  return createClient<paths>({
    baseUrl,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}
