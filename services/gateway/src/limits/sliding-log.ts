/**
 * Sliding-log rate limit, atomic in Redis (one EVALSHA). KEYS[1] = sorted set of accepted requests
 * (score = acceptance time in microseconds). ARGV = limit, window in ms, optional "now" in
 * microseconds (tests only; production reads Redis' own clock with TIME).
 *
 * A request is accepted when fewer than `limit` requests were accepted in the last `window`; only
 * accepted requests are recorded. Returns { allowed 0|1, remaining, microseconds until the oldest
 * recorded request leaves the window (when the next slot frees) }.
 *
 * Timestamps in microseconds stay below 2^53, so Lua numbers (doubles) hold them exactly.
 */
export const SLIDING_LOG_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000
local now
if ARGV[3] then
  now = tonumber(ARGV[3])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  local member = string.format('%.0f', now)
  local n = 0
  while redis.call('ZADD', key, 'NX', now, member) == 0 do
    n = n + 1
    member = string.format('%.0f', now) .. '.' .. n
  end
  redis.call('PEXPIRE', key, ARGV[2])
  count = count + 1
  allowed = 1
end
local reset = 0
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if oldest[2] then reset = tonumber(oldest[2]) + window - now end
end
return { allowed, limit - count, reset }
`;
