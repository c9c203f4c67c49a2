-- How much a guest's own cancellation refunds, by how long before the start it comes (docs/payments.md,
-- "Refunds by the rules"): a JSON array of {"HoursBefore": n, "Percent": p}, ordered by HoursBefore from
-- the largest. The empty array (the default, as before) refunds everything paid whenever the guest may cancel.
ALTER TABLE activities ADD COLUMN guest_refund_rules TEXT NOT NULL DEFAULT '[]';
