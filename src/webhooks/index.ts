// The webhooks domain's face: what other folders may use of it. They import this file, never its stores.
export { deliveryQueueStats } from './deliveries/store.js';
