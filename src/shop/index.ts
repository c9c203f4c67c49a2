// The shop domain's face: what other folders may use of it. They import this file, never its stores.
export { insertBasket, listBasketItems } from './store.js';
