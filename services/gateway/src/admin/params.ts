import { TEXT, text } from '@od/contracts';

/**
 * A path id of the admin API (store, order, credential, event): any text up to TEXT.id characters;
 * the service decides whether it names something (404 not_found otherwise). Longer: 404 here.
 */
export const adminIdParam = text(TEXT.id);
