export { checkHttpsUrl, isPublicAddress, type UrlCheck } from './address-policy.ts';
export { describeNetworkError, refusedHost } from './network-error.ts';
export {
  AbortedError,
  createAgent,
  guardedLookup,
  type OutboundRequest,
  type OutboundResult,
  outboundRequest,
} from './request.ts';
