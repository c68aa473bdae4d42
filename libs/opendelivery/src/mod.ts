export { OD_ERROR_MEDIA_TYPE, type OdError, toOdError } from './errors.ts';
export { OD_EVENT_TYPES, type OdEventType, odEventType, toOdEvent } from './events.ts';
export { type OdOrder, omitNulls, toOdOrder } from './order.ts';
