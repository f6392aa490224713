-- The admin's money-in per day sums today's settled top-ups by the time they settled
-- (quire_kit::daily_totals keeps the closed days): this index serves that sum without
-- reading the table.
CREATE INDEX top_ups_settled ON top_ups (settled_at) INCLUDE (amount_cents)
    WHERE status = 'settled';
