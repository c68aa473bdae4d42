import { errors, HttpException } from '@od/errors';

/** A client's mistake in an intake or edit: 400 in the admin body form, naming the field. */
export function bad(message: string, field?: string): HttpException {
  return new HttpException(errors.adminValidation(message, field ? { [field]: [message] } : undefined));
}
