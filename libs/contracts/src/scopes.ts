/**
 * Credential scopes (grants). Reading never implies writing: `merchant:write` changes the store
 * through the Open Delivery Merchant module (onboarding, menuUpdated, merchantStatus), is never
 * granted by default and is given only when the merchant ticks it. One write grant, not a
 * separate `catalog:write`: menuUpdated replaces the store and its menu from one document, so a
 * menu-only grant could not be used alone. No zod here: the panel's page imports this file.
 */
export const SCOPES = [
  'orders:read',
  'orders:write',
  'merchant:read',
  'catalog:read',
  'merchant:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes that change a store, its menu, its onboarding or its status: granted only explicitly. */
export const STORE_WRITE_SCOPES = ['merchant:write'] as const satisfies readonly Scope[];

/** What a client offers when the caller names no scope (odctl, the panel's form): every read and order scope. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter(
  (s) => !(STORE_WRITE_SCOPES as readonly Scope[]).includes(s),
);

/** The panel's scope list: each scope with the i18n key of its label and whether it is a store write. */
export const PANEL_SCOPES: readonly { scope: Scope; labelKey: string; storeWrite: boolean }[] = SCOPES.map(
  (scope) => ({
    scope,
    labelKey: `scope.${scope}`,
    storeWrite: (STORE_WRITE_SCOPES as readonly Scope[]).includes(scope),
  }),
);
