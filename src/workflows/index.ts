// The workflows domain's face: what other folders may use of it. They import this file, never its stores.
export { findWorkflow } from './store.js';
