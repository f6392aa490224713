DROP TABLE daily_totals;
