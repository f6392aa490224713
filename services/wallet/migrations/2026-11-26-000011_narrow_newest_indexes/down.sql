DROP INDEX trades_newest;
CREATE INDEX trades_newest ON trades (created_at DESC) INCLUDE (price_cents, platform_cents);
DROP INDEX top_ups_newest;
CREATE INDEX top_ups_newest ON top_ups (created_at DESC) INCLUDE (amount_cents, status);
