DROP INDEX top_ups_settled;
