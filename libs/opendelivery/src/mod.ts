export { OD_ERROR_MEDIA_TYPE, type OdError, toOdError } from './errors.ts';
export { OD_EVENT_TYPES, type OdEventType, odEventType, platformTypesFor, toOdEvent } from './events.ts';
export {
  type MerchantApiInfo,
  type MerchantReading,
  merchantApiInfoSchema,
  merchantEndpointUrl,
  merchantStatusSchema,
  OD_READ_STATUSES,
  type OdMerchantDocument,
  type OdMerchantStatus,
  odMerchantIdSchema,
  readMerchantDocument,
} from './merchant.ts';
export {
  OD_ID_NAMESPACE,
  type OdOrder,
  type OdRenderContext,
  omitNulls,
  stableUuid,
  toOdOrder,
} from './order.ts';
