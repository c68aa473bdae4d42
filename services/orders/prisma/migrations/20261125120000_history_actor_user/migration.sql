-- The merchant user behind a panel action (actor PANEL): who clicked. Nullable, no default: adding
-- them rewrites nothing and the previous release, which never names them, keeps writing history.
ALTER TABLE order_history ADD COLUMN actor_user_id uuid, ADD COLUMN actor_email text;
