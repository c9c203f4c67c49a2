// The staff domain's face: what other folders may use of it. They import this file, never its stores.
export { anyoneNoticesEachBooking, digestRecipients, markDigestSent, recipientsOfEachBooking } from './users/notices-store.js';
export { listUsers } from './users/store.js';
