// GYG's notify: a notification (today only PRODUCT_DEACTIVATION) recorded for the operator's connection
// page, with GYG's details as sent. Unknown notification types are recorded too (liberal), never refused.
import type { Db } from '../db/connection.js';
import type { GygCaller } from './products.js';
import type { NotifyBody } from './schemas.js';
import { insertNotification } from './store.js';
import { nowMillis } from '../lib/clock.js';

export async function recordNotification(db: Db, caller: GygCaller, body: NotifyBody): Promise<void> {
  const { data } = body;
  const details = {
    ...(data.supplierName !== undefined && { supplierName: data.supplierName }),
    ...(data.integrationName !== undefined && { integrationName: data.integrationName }),
    ...(data.dateTime !== undefined && { dateTime: data.dateTime }),
    ...(data.productDetails !== undefined && { productDetails: data.productDetails }),
    ...(data.notificationDetails !== undefined && { notificationDetails: data.notificationDetails }),
  };
  await db.write((tx) =>
    insertNotification(tx, {
      operator_id: caller.operatorId,
      notification_type: data.notificationType,
      product_id: data.productDetails?.productId ?? null,
      description: data.description ?? '',
      details: JSON.stringify(details),
      received_at: nowMillis(),
    }),
  );
}
