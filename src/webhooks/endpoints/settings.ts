// The operator's webhook settings: for now where slotbook e-mails it about its endpoints (operators'
// contact_email, the column the shop settings show too: read and written through the settings store).
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { readSettingsRow, updateSettingsRow } from '../../settings/index.js';
import type { WebhookSettings } from './schemas.js';
import { audit } from '../../audit/log.js';

export async function getSettings(db: Kysely<Database>, operatorId: number): Promise<WebhookSettings> {
  return { ContactEmail: (await readSettingsRow(db, operatorId))?.contact_email ?? null };
}

export async function changeSettings(db: Db, operatorId: number, body: WebhookSettings): Promise<WebhookSettings> {
  await db.write(async (tx) => {
    const before = await getSettings(tx, operatorId);
    const ContactEmail = body.ContactEmail === null ? null : body.ContactEmail.trim();
    await updateSettingsRow(tx, operatorId, { contact_email: ContactEmail });
    await audit(tx, {
      operatorId,
      action: 'webhook-settings.update',
      resource: { type: 'operator', id: operatorId },
      before,
      after: { ContactEmail },
    });
  });
  return getSettings(db.kysely, operatorId);
}
