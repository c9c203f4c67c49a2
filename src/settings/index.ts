// The settings domain's face: what other folders may use of it. They import this file, never its stores.
export { readSettingsRow, updateSettingsRow } from './store.js';
