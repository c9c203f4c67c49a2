// The first page's data (profile, activities with their policies), asked once per page load and shared by
// the pages that need it: the list, an activity's page, the basket.
import { shop, type Storefront } from './api';
import { boot } from './app';

let cached: Storefront | undefined;
export async function loadStorefront(): Promise<Storefront> {
  cached ??= await shop<Storefront>('GET', `/storefront?Locale=${boot.Locale}`);
  return cached;
}
