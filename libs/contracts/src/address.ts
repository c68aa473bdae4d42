import { z } from 'zod';

/** The address lines every public address has (order delivery, store), all strings. */
export const addressLines = {
  country: z.string(),
  state: z.string(),
  city: z.string(),
  district: z.string(),
  street: z.string(),
  number: z.string(),
  postalCode: z.string(),
};
