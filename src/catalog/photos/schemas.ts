import { Type, type Static } from '@sinclair/typebox';
import { ACTIVITY_ID_PATTERN, MAX_ROW_ID } from '../../http/schemas.js';

export const PhotoSize = Type.Object({
  Width: Type.Integer(),
  Height: Type.Integer(),
  Url: Type.String({ description: 'A JPEG of this width; its address never changes content, so it may be cached forever' }),
});

export const ActivityPhoto = Type.Object(
  {
    ID: Type.Integer(),
    Alt: Type.String({ description: 'What the photo shows, for people who cannot see it; empty: decorative' }),
    Width: Type.Integer({ description: "The original's width in pixels" }),
    Height: Type.Integer({ description: "The original's height in pixels" }),
    Url: Type.String({ description: 'The largest size' }),
    Sizes: Type.Array(PhotoSize, { description: 'Resized JPEGs, narrowest first (480, 960 and 1600 pixels wide, never wider than the original)' }),
    Srcset: Type.String({ description: 'The sizes as an HTML srcset ("url 480w, url 960w, ...")' }),
  },
  { $id: 'ActivityPhoto' },
);
export type ActivityPhoto = Static<typeof ActivityPhoto>;

export const MAX_ALT_LENGTH = 300;
const Alt = Type.String({ maxLength: MAX_ALT_LENGTH, description: `What the photo shows (alternative text), at most ${MAX_ALT_LENGTH} characters` });

export const UploadPhotoQuery = Type.Object({ Alt: Type.Optional(Alt) });
export const ChangePhotoBody = Type.Object({ Alt }, { additionalProperties: false });
export type ChangePhotoBody = Static<typeof ChangePhotoBody>;

export const PhotoParams = Type.Object({
  ActivityID: Type.String({ pattern: ACTIVITY_ID_PATTERN }),
  PhotoID: Type.Integer({ minimum: 1, maximum: MAX_ROW_ID }),
});
