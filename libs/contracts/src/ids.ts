/** GUID as SPEC uses it: any RFC 4122 layout of hex digits (versions are not checked). */
export const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isGuid = (s: unknown): s is string => typeof s === 'string' && GUID_PATTERN.test(s);

/** ISO 8601 UTC with Z and milliseconds, the only date format on the wire. */
export const isoUtc = (d: Date | string | number): string => new Date(d).toISOString();
