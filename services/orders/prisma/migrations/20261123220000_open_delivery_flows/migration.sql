-- Open Delivery 1.4.0 order flows (OPEN_DELIVERY credentials).
-- The cancellation request waiting for the other party's answer: NULL when none, else
-- { party: MERCHANT | ORDERING_APP, reason, code, requestedAt }. Orthogonal to the situation.
ALTER TABLE orders ADD COLUMN cancellation_request jsonb;

-- The customer's delivery confirmation code (validateCode): 4 digits drawn from gen_random_uuid()
-- (a CSPRNG), also for the orders that exist already. Shown to the ordering channel by the admin API.
ALTER TABLE orders ADD COLUMN delivery_code text NOT NULL
  DEFAULT lpad((('x' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8))::bit(32)::bigint % 10000)::text, 4, '0');
