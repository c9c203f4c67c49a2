-- What the shop charged for a basket item when it was bought (issue 26, item 1): its tickets' price then,
-- or its deposit. A booking's share of its basket's payment is this, not its tickets' price now: a staff
-- move to another activity re-prices the tickets, and the difference is refunded or asked for
-- (shop/price-difference.ts) rather than silently becoming what the payment "paid". Items bought before
-- this migration have none and keep the old reading (their tickets' price).
ALTER TABLE basket_items ADD COLUMN charged INTEGER;
