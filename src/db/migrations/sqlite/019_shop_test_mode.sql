-- A shop's test mode (issue 23, finding 2): the operator runs the shop as a test shop, whose checkouts the
-- test provider charges (it moves no money) even in production, and whose booking pages say so. Off for
-- every shop: in production a shop then needs a real payment provider to open (src/shop/payments.ts).
ALTER TABLE shop_settings ADD COLUMN test_mode INTEGER NOT NULL DEFAULT 0;
