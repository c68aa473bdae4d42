import {
  sampleMenu as catalogSampleMenu,
  sampleMerchant as catalogSampleMerchant,
} from '../../services/catalog/src/domain/sample.ts';

/**
 * The sample menu for `store menu set --sample`, `demo` and the bench, in the admin `PUT .../menu`
 * shape: the catalog's own sample (services/catalog/src/domain/sample.ts), the one sample menu.
 */
export async function sampleMenu(): Promise<Record<string, unknown>> {
  return catalogSampleMenu().menu as Record<string, unknown>;
}

/** Store fields (document, address, contacts, services) of the catalog's sample store, named `name`. */
export async function sampleMerchant(name: string): Promise<Record<string, unknown>> {
  return { ...catalogSampleMerchant(), name };
}
