-- Reports (docs/reports.md) read an operator's timeslots of a period: this index finds them by date without
-- reading the operator's whole history; their bookings come through bookings_timeslot. The e-mail list
-- filtered by workflow (the workflows page) reads one workflow's e-mails newest first.
CREATE INDEX timeslots_operator_date ON timeslots(operator_id, date);
CREATE INDEX emails_workflow ON emails(workflow_id, id);
