// An activity's photos on the booking pages: every size slotbook made (srcset), so a 360 px phone loads
// the 480 px one and a wide screen the largest; width and height reserve the space before it arrives (no
// jump), and the alternative text is the operator's (empty: decorative).
import type { Activity } from './api';
import { h } from './dom';

type Photo = Activity['Photos'][number];

export function photoImage(photo: Photo, sizes: string, eager = false): HTMLImageElement {
  return h('img', {
    src: photo.Sizes[0]?.Url ?? photo.Url,
    srcset: photo.Srcset,
    sizes,
    alt: photo.Alt,
    width: photo.Width,
    height: photo.Height,
    loading: eager ? 'eager' : 'lazy',
    decoding: 'async',
    class: 'photo',
  });
}

/** The activity's page: the cover large, the others below it, two to a row. */
export function gallery(activity: Activity): HTMLElement | null {
  const [cover, ...rest] = activity.Photos;
  if (!cover) return null;
  return h(
    'section',
    { class: 'gallery', 'aria-label': activity.Name },
    photoImage(cover, '(min-width: 720px) 680px, 100vw', true),
    rest.length > 0
      ? h(
          'ul',
          { class: 'gallery-rest' },
          rest.map((photo) => h('li', null, photoImage(photo, '(min-width: 720px) 340px, 50vw'))),
        )
      : null,
  );
}
