-- Usage totals per operator, UTC month (YYYY-MM) and meter, kept in the same transaction as the daily
-- totals, so that a summary over a year reads about 12 x meters rows plus the days of its partial months,
-- instead of 365 x meters. Filled here from the daily totals that exist already (decimal_sum is the exact
-- sum the connection registers).

CREATE TABLE usage_monthly_totals (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  month TEXT NOT NULL,
  meter TEXT NOT NULL,
  total_micros TEXT NOT NULL,
  event_count INTEGER NOT NULL,
  PRIMARY KEY (operator_id, month, meter)
);

INSERT INTO usage_monthly_totals (operator_id, month, meter, total_micros, event_count)
SELECT operator_id, substr(day, 1, 7), meter, decimal_sum(total_micros), sum(event_count)
FROM usage_daily_totals
GROUP BY operator_id, substr(day, 1, 7), meter;
