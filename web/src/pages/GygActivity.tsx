// What GetYourGuide did: its notifications (PRODUCT_DEACTIVATION, ...) and its latest requests with their
// answers, so an operator can answer GetYourGuide's support. The server keeps no personal data in either.
import { formatInstant } from '../format';
import { Badge, Card, DataTable, figure } from '../ui';
import type { GygConnection } from '../getyourguide';

export function GygActivity({ data, onReload, loading }: { data: GygConnection; onReload: () => void; loading: boolean }) {
  // Both cards reload the whole connection; each button is named for its own card.
  const reload = (what: string) => (
    <button type="button" className="btn btn-sm" onClick={onReload} disabled={loading} aria-label={`Refresh ${what}`}>
      Refresh
    </button>
  );
  return (
    <>
      <Card title="Notifications from GetYourGuide" actions={reload('notifications')}>
        <DataTable
          rows={data.Notifications}
          columns={['Received', 'Type', 'Product', 'Description']}
          label="Notifications from GetYourGuide"
          scrollable
          empty={<p className="muted">No notifications. GetYourGuide sends one when it deactivates a product, for instance.</p>}
        >
          {(entry) => (
            <tr key={`${entry.ReceivedAt}-${entry.Type}-${entry.ProductID}`}>
              <td className="nowrap">{formatInstant(entry.ReceivedAt)}</td>
              <td>
                <Badge tone={entry.Type === 'PRODUCT_DEACTIVATION' ? 'danger' : 'info'}>{entry.Type}</Badge>
              </td>
              <td className="mono">{entry.ProductID ?? '—'}</td>
              <td>{entry.Description}</td>
            </tr>
          )}
        </DataTable>
      </Card>
      <Card title="Latest requests from GetYourGuide" actions={reload('requests')}>
        <DataTable
          rows={data.Requests}
          columns={['Time', 'Endpoint', 'Product', 'Answer', figure('Took')]}
          label="Latest requests from GetYourGuide"
          scrollable
          empty={<p className="muted">GetYourGuide has not called yet.</p>}
        >
          {(entry, index) => (
            <tr key={`${entry.At}-${index}`}>
              <td className="nowrap">{formatInstant(entry.At)}</td>
              <td className="mono">{entry.Endpoint}</td>
              <td className="mono">{entry.ProductID ?? '—'}</td>
              <td>{entry.ErrorCode ? <Badge tone="danger">{entry.ErrorCode}</Badge> : <Badge tone="success">OK</Badge>}</td>
              <td className="num">{entry.DurationMs} ms</td>
            </tr>
          )}
        </DataTable>
      </Card>
    </>
  );
}
