// A real `slotbook serve` process with one operator, an ota key of marketplace `viator`, an activity and
// a timeslot, all made through the command line and the HTTP API, for the metrics and tracing tests.
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

export interface World {
  database: TestDatabase;
  server: ServerProcess;
  operatorId: number;
  adminKey: string;
  otaKey: string;
  activityId: string;
  date: string;
  /** Books `participants` seats at 10:00 as the guest below; answers the HTTP status and the body. */
  book(participants?: number): Promise<{ status: number; body: { data?: { BookingReference: string } } }>;
  stop(): Promise<void>;
}

export const GUEST = { FirstName: 'Grace', LastName: 'Hopperfield', Email: 'grace.hopper@example.com', Phone: '+15551234567' };

export async function startWorld(env: Record<string, string>): Promise<World> {
  const database = await createTestDatabase();
  const created = await runCli(['operator', 'create', '--name', 'Observed Tours'], { DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const { OperatorID, AdminKey } = JSON.parse(created.stdout) as { OperatorID: number; AdminKey: string };
  const server = await startServerProcess(database.url, env);
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/api/v2/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AdminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  const otaKey = String((await admin('/keys', { Name: 'Viator', Scopes: ['ota'], Partner: 'viator' })).Key);
  const activity = await admin('/activities', {
    Name: 'Harbour Kayak',
    DurationMinutes: 90,
    Timezone: 'Europe/Berlin',
    Currency: 'EUR',
    UnitPrice: 4500,
  });
  const activityId = String(activity.ActivityID);
  const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  await admin(`/activities/${activityId}/timeslots`, { Date: date, Time: '10:00', Capacity: 20 });
  return {
    database,
    server,
    operatorId: Number(OperatorID),
    adminKey: AdminKey,
    otaKey,
    activityId,
    date,
    async book(participants = 2) {
      const response = await fetch(`${server.url}/api/v2/ota/viator/booking`, {
        method: 'POST',
        headers: { authorization: `Bearer ${otaKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ActivityID: activityId, Date: date, Time: '10:00', Participants: participants, Customer: GUEST }),
      });
      return { status: response.status, body: (await response.json()) as { data?: { BookingReference: string } } };
    },
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}
