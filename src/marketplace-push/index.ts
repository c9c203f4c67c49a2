// The marketplace-push domain's face: what other folders may use of it. They import this file, never its stores.
export { pushQueueStats, queuePushes } from './store.js';
