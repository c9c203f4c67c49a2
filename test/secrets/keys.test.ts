import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceKeys, loadInstanceKeys } from '../../src/secrets/keys.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('instance keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Without SECRET_KEY (outside production), so that the app keeps its master secret in the database.
    t = await createTestApp({ SECRET_KEY: '' });
  });
  afterAll(() => t.close());

  it('seals and opens a secret, and refuses one altered or sealed for another purpose', () => {
    const keys = instanceKeys('a'.repeat(32));
    const sealed = keys.seal('webhook-secret', 'whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(keys.open('webhook-secret', sealed)).toBe('whsec_abc');
    expect(() => keys.open('other-purpose', sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => keys.open('webhook-secret', parts.join('.'))).toThrow();
    // A fresh IV each time: the same secret never seals to the same text.
    expect(keys.seal('webhook-secret', 'whsec_abc')).not.toBe(sealed);
  });

  it('derives a different HMAC key per purpose and per master secret', () => {
    const a = instanceKeys('a'.repeat(32));
    expect(a.hmac('idempotency', 'x')).toBe(a.hmac('idempotency', 'x'));
    expect(a.hmac('idempotency', 'x')).not.toBe(a.hmac('other', 'x'));
    expect(instanceKeys('b'.repeat(32)).hmac('idempotency', 'x')).not.toBe(a.hmac('idempotency', 'x'));
  });

  it('keeps one master secret in the database for every process, unless SECRET_KEY is set', async () => {
    const first = await loadInstanceKeys(t.db.kysely, undefined);
    const second = await loadInstanceKeys(t.db.kysely, undefined);
    expect(second.hmac('p', 'x')).toBe(first.hmac('p', 'x'));
    expect(t.app.instanceKeys.hmac('p', 'x')).toBe(first.hmac('p', 'x'));
    const configured = await loadInstanceKeys(t.db.kysely, 'c'.repeat(32));
    expect(configured.hmac('p', 'x')).not.toBe(first.hmac('p', 'x'));
    const rows = await t.db.kysely.selectFrom('instance_secrets').selectAll().execute();
    expect(rows).toHaveLength(1);
  });
});
