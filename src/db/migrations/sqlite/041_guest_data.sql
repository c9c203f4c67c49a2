-- Guests' data (docs/privacy.md): an operator exports and erases what slotbook holds about a guest, found
-- by the e-mail address in any case, and a retention job erases guests whose last activity is long past.
-- These indexes find a guest's bookings, waitlist places and baskets by the address without reading the
-- operator's whole history; the erasure writes the same placeholder address to every row it anonymises.
CREATE INDEX bookings_guest_email ON bookings (operator_id, lower(customer_email));
CREATE INDEX waitlist_entries_guest_email ON waitlist_entries (operator_id, lower(customer_email));
CREATE INDEX baskets_guest_email ON baskets (operator_id, lower(customer_email));
CREATE INDEX emails_guest_address ON emails (operator_id, lower(to_address));
