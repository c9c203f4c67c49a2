import { Type } from '@sinclair/typebox';
import { SCOPES } from './keys.js';
import { RowId } from '../http/schemas.js';

const Scope = Type.Union(
  SCOPES.map((scope) => Type.Literal(scope)),
  { description: 'ota (partner API, with Partner), usage:read, usage:write, admin' },
);

const keyFields = {
  ID: Type.Integer(),
  Name: Type.String(),
  Scopes: Type.Array(Type.String()),
  Partner: Type.Union([Type.String(), Type.Null()], { description: 'The marketplace an ota key sells for' }),
};

export const ApiKey = Type.Object(
  {
    ...keyFields,
    CreatedAt: Type.String({ format: 'date-time' }),
    RevokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    Current: Type.Boolean({ description: 'true for the key that made this request (revoking it ends your own access)' }),
  },
  { $id: 'ApiKey' },
);

export const CreatedApiKey = Type.Object(
  { ...keyFields, Key: Type.String({ description: 'The secret key. It is shown only in this response; store it now.' }) },
  { $id: 'CreatedApiKey' },
);

export const CreateKeyBody = Type.Object({
  Name: Type.String({ minLength: 1, maxLength: 100 }),
  Scopes: Type.Array(Scope, { minItems: 1, maxItems: SCOPES.length }),
  Partner: Type.Optional(
    Type.Union([Type.String({ maxLength: 63 }), Type.Null()], { description: 'Marketplace name, required with the ota scope, e.g. viator' }),
  ),
});

export const KeyIdParams = Type.Object({ ID: RowId('The API key ID') });
