export { checkHttpsUrl, isPublicAddress, type UrlCheck } from './address-policy.ts';
export {
  createEgressDns,
  DEFAULT_DNS_TIMEOUT_MS,
  defaultEgressDns,
  type EgressDns,
  type EgressDnsOptions,
} from './dns.ts';
export { describeNetworkError, refusedHost } from './network-error.ts';
export {
  AbortedError,
  createAgent,
  guardedLookup,
  type OutboundRequest,
  type OutboundResult,
  outboundRequest,
} from './request.ts';
