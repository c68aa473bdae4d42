/**
 * A credential's API profile: `SPEC` (default) serves the platform's documented shapes;
 * `OPEN_DELIVERY` serves the official Open Delivery 1.4.0 contract for that credential's calls,
 * events and pushes.
 */
export const API_PROFILES = ['SPEC', 'OPEN_DELIVERY'] as const;
export type ApiProfile = (typeof API_PROFILES)[number];
