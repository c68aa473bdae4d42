import type { StoreDay } from './store-hours.ts';

/**
 * What orders needs of a store at intake: its public Merchant, the test flag, its current menu and
 * its day (switches, pauses, hours: `isOpen`). `store` is absent from a catalog of a release before
 * it (intake then judges by the public statuses alone).
 */
export interface MerchantSnapshot {
  merchant: { id: string; name: string; [k: string]: unknown };
  test: boolean;
  store?: StoreDay;
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
