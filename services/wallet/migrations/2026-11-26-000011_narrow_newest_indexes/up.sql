-- 000009 widened the newest-first indexes with the summed columns so that the admin's
-- per-day sums read them alone. Those sums now come from the kept daily totals
-- (quire_kit::daily_totals) and today's rows, so the extra columns only made every trade
-- and top-up write a wider index entry: back to the plain indexes the lists use.
DROP INDEX trades_newest;
CREATE INDEX trades_newest ON trades (created_at DESC);
DROP INDEX top_ups_newest;
CREATE INDEX top_ups_newest ON top_ups (created_at DESC);
