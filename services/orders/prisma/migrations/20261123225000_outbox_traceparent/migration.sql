-- W3C traceparent of the action that wrote the row (null when tracing is off): the relay publishes
-- the event with it in the JetStream headers, so the consumers' spans join the action's trace.
ALTER TABLE order_outbox ADD COLUMN traceparent text;
