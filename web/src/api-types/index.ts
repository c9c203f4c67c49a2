// The API's bodies as the web app uses them: the schemas of the generated openapi.ts (`npm run api-types`),
// and the `data` of an answer that has no schema of its own, looked up by path, method and status.
import type { components, paths } from './openapi';

export type { components, paths } from './openapi';

/** The named schemas of /openapi.json (components.schemas), e.g. `Schemas['Booking']`. */
export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** The `data` of the JSON answer of `method` on `path` with `status`, e.g. `Answer<'/api/v2/staff/me', 'get'>`. */
export type Answer<Path extends keyof paths, M extends Method & keyof paths[Path], Status extends number = 200> = paths[Path][M] extends {
  responses: { [S in Status]: { content: { 'application/json': { data: infer Data } } } };
}
  ? Data
  : never;

/** The JSON body that `method` on `path` takes. */
export type RequestBody<Path extends keyof paths, M extends Method & keyof paths[Path]> = paths[Path][M] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
