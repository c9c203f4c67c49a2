// octo/content: a product's words and photos for a reseller's page. slotbook has a name, a description,
// inclusions, a meeting point, what to bring and photos; OCTo's fields for each are filled from them, the
// ones it has nothing for are empty (null or []). The photos are the largest size of each (its address never
// changes content); the first is the cover.
import { detailsOf } from '../../catalog/details.js';
import type { ActivityPhoto } from '../../catalog/photos/schemas.js';
import type { ActivityRow } from '../../catalog/index.js';
import type { Product } from './schemas.js';

type Content = Pick<
  Product,
  | 'title'
  | 'description'
  | 'shortDescription'
  | 'highlights'
  | 'inclusions'
  | 'exclusions'
  | 'bookingTerms'
  | 'redemptionInstructions'
  | 'coverImageUrl'
  | 'bannerImageUrl'
  | 'videoUrl'
  | 'galleryImages'
  | 'bannerImages'
>;

/** Where to meet and what to bring, as one text (OCTo has no field of its own for either). */
function instructions(activity: ActivityRow): string | null {
  const { MeetingPoint, WhatToBring } = detailsOf(activity);
  const lines = [
    ...(MeetingPoint ? [`Meeting point: ${MeetingPoint.Address}${MeetingPoint.MapUrl ? ` (${MeetingPoint.MapUrl})` : ''}`] : []),
    ...(WhatToBring.length > 0 ? [`What to bring: ${WhatToBring.join('; ')}`] : []),
  ];
  return lines.length > 0 ? lines.join('\n') : null;
}

export function octoContent(activity: ActivityRow, photos: ActivityPhoto[]): Content {
  const gallery = photos.map((photo) => ({ url: photo.Url, title: photo.Alt === '' ? null : photo.Alt, caption: null }));
  return {
    title: activity.name,
    description: activity.description === '' ? null : activity.description,
    shortDescription: null,
    highlights: [],
    inclusions: detailsOf(activity).Inclusions,
    exclusions: [],
    bookingTerms: null,
    redemptionInstructions: instructions(activity),
    coverImageUrl: gallery[0]?.url ?? null,
    bannerImageUrl: null,
    videoUrl: null,
    galleryImages: gallery,
    bannerImages: [],
  };
}
