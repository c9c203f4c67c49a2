// The emails domain's face: what other folders may use of it. They import this file, never its stores.
export { emailQueueStats, type EmailRow } from './store.js';
