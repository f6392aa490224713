-- The admin's sales figures sum a year of trades and top-ups by day. The newest-first
-- indexes carry the summed columns as well, so those sums read the index alone (an
-- index-only scan) instead of every wide trade row; the lists they served before read them
-- as they did.
DROP INDEX trades_newest;
CREATE INDEX trades_newest ON trades (created_at DESC) INCLUDE (price_cents, platform_cents);
DROP INDEX top_ups_newest;
CREATE INDEX top_ups_newest ON top_ups (created_at DESC) INCLUDE (amount_cents, status);
