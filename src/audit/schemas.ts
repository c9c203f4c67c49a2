import { Type, type Static } from '@sinclair/typebox';

export const AuditEntry = Type.Object(
  {
    ID: Type.Integer(),
    At: Type.String({ format: 'date-time' }),
    Actor: Type.Object({
      Type: Type.Unsafe<'user' | 'key' | 'system' | 'anonymous'>({ type: 'string', enum: ['user', 'key', 'system', 'anonymous'] }),
      ID: Type.Union([Type.Integer(), Type.Null()], { description: 'The user or API key ID' }),
      Label: Type.String({ description: "The user's e-mail address or the key's name at the time" }),
    }),
    Address: Type.Union([Type.String(), Type.Null()], { description: 'The client address the change came from' }),
    Action: Type.String({ description: '<resource>.<verb>, e.g. booking.cancel' }),
    Resource: Type.Object({ Type: Type.String(), ID: Type.Union([Type.String(), Type.Null()]) }),
    Before: Type.Unknown({ description: 'The resource before the change (secrets redacted); null for a creation' }),
    After: Type.Unknown({ description: 'The resource after the change (secrets redacted); null for a deletion' }),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntryView = Static<typeof AuditEntry>;

const Instant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  description: 'A UTC date (YYYY-MM-DD) or an instant with offset',
});

export const AuditQuery = Type.Object({
  Actor: Type.Optional(
    Type.String({
      pattern: '^(user:\\d{1,10}|key:\\d{1,10}|user|key|system|anonymous)$',
      description: 'user:<ID>, key:<ID>, user, key, system or anonymous',
    }),
  ),
  Action: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'An action (booking.cancel), or a prefix ending in a dot (booking.)' }),
  ),
  ResourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  ResourceID: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  From: Type.Optional({ ...Instant, description: 'From this instant (a date: its start, UTC)' }),
  To: Type.Optional({ ...Instant, description: 'Up to this instant (a date: its end, UTC, inclusive)' }),
  Before: Type.Optional(Type.Integer({ minimum: 1, description: 'Only entries with a smaller ID (the next page)' })),
  Limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditExportQuery = Type.Omit(AuditQuery, ['Limit', 'Before']);
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const AuditVocabulary = Type.Object({
  Actions: Type.Array(Type.String()),
  ResourceTypes: Type.Array(Type.String()),
  Actors: Type.Array(Type.Object({ Actor: Type.String({ description: 'For the Actor filter: user:<ID> or key:<ID>' }), Label: Type.String() })),
});
