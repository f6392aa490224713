-- Per-day totals of closed days, kept by quire_kit::daily_totals for the admin figures.
-- A day closes an hour after it ends (SEAL_MARGIN); its rows never change after that, so
-- it is summed once, on the first ask, and read from here ever after. `series` names what
-- is summed (e.g. 'trades'); a day with nothing has a row of zeros, so it is not summed
-- again.
CREATE TABLE daily_totals (
    series TEXT   NOT NULL,
    day    DATE   NOT NULL,
    count  BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    extra  BIGINT NOT NULL,
    PRIMARY KEY (series, day)
);
