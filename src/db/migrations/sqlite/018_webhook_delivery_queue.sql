-- The webhook delivery queue, made to stay fast with a large history and with a failing endpoint
-- (docs/webhooks.md, "How it is built").
--
-- 1. A delivery's latest attempt lives on its row (last_*, now with the start of the answer); the attempts
--    table keeps only the earlier ones. A delivery accepted at its first attempt, nearly all of them, then
--    writes its own row and nothing else. The latest attempt of each delivery moves onto its row here.
ALTER TABLE webhook_deliveries ADD COLUMN last_response_body TEXT;
UPDATE webhook_deliveries SET last_response_body = (
  SELECT a.response_body FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id ORDER BY a.id DESC LIMIT 1);
DELETE FROM webhook_attempts WHERE id IN (SELECT max(id) FROM webhook_attempts GROUP BY delivery_id);

-- 2. Indexes of live deliveries only. Settled ones (nearly every row) leave them, so neither the claim nor
--    the wait for an earlier delivery of the same resource reads through history; the claim walks each
--    endpoint's own due deliveries, so one endpoint's backlog is never read to find another's.
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_order;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(endpoint_id, next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries(claimed_until) WHERE status = 'sending';
CREATE INDEX webhook_deliveries_order ON webhook_deliveries(endpoint_id, resource, event_id) WHERE status IN ('pending', 'sending');
