// The Reports page's payments: money taken (gross), given back (refunds) and net for the same period,
// by the day the money moved (in each activity's time zone), per activity and per channel, each amount
// per currency, never added across currencies; the rows as a CSV download (docs/payments.md).
import { api, withQuery } from '../api';
import type { Schemas } from '../api-types';
import { formatDate, formatMoney } from '../format';
import { Card, DataTable, ErrorBanner, figure, Icon, Spinner, useLoad } from '../ui';

type Report = Schemas['PaymentReport'];
type Group = Report['ByDay'][number];
type Sum = Group['Gross'][number];

const sumsText = (sums: Sum[]) => (sums.length === 0 ? '–' : sums.map((sum) => formatMoney(sum.AmountMinorUnits, sum.Currency)).join(' · '));

const moved = (group: Group) => [...group.Gross, ...group.Refunds].some((sum) => sum.AmountMinorUnits !== 0);

export function PaymentsSection({ from, to }: { from: string; to: string }) {
  const report = useLoad((signal) => api.get<Report>('/api/v2/admin/reports/payments', { From: from, To: to }, signal), [from, to]);
  const data = report.data;
  const csv = withQuery('/api/v2/admin/reports/payments/export', { From: from, To: to });
  return (
    <section className="report-payments" aria-labelledby="payments-heading">
      <div className="section-header">
        <h2 id="payments-heading">Payments</h2>
        <a className="btn btn-secondary" href={csv} download>
          <Icon name="download" /> Download payments CSV
        </a>
      </div>
      <p className="muted">
        Money taken (payments that succeeded), refunds that succeeded and net, by the day the money moved in each activity's time zone.
      </p>
      <ErrorBanner error={report.error} onRetry={report.reload} />
      {report.loading && !data && <Spinner label="Loading the payments" />}
      {data && (
        <>
          <div className="stat-cards report-totals">
            {(['Gross', 'Refunds', 'Net'] as const).map((figureName) => (
              <div className="stat-card" key={figureName}>
                <span className="stat-label">{figureName}</span>
                <span className="stat-value report-money" data-testid={`payments-${figureName.toLowerCase()}`}>
                  {data.Totals[figureName].length === 0
                    ? '–'
                    : data.Totals[figureName].map((sum) => <span key={sum.Currency}>{formatMoney(sum.AmountMinorUnits, sum.Currency)}</span>)}
                </span>
              </div>
            ))}
          </div>
          <div className="report-tables">
            <MoneyTable title="Payments per day" first="Day" groups={data.ByDay.filter(moved)} label={(group) => formatDate(group.Key)} />
            <MoneyTable title="Payments per activity" first="Activity" groups={data.ByActivity} label={(group) => group.Label} />
            <MoneyTable title="Payments per channel" first="Channel" groups={data.ByChannel} label={(group) => group.Label} />
          </div>
        </>
      )}
    </section>
  );
}

function MoneyTable({ title, first, groups, label }: { title: string; first: string; groups: Group[]; label: (group: Group) => string }) {
  return (
    <Card title={title}>
      <DataTable
        rows={groups}
        columns={[first, figure('Gross'), figure('Refunds'), figure('Net')]}
        label={title}
        scrollable
        empty={<p className="muted">No payments or refunds.</p>}
      >
        {(group) => (
          <tr key={group.Key} data-key={group.Key}>
            <td data-label={first}>{label(group)}</td>
            <td data-label="Gross" className="num">
              {sumsText(group.Gross)}
            </td>
            <td data-label="Refunds" className="num">
              {sumsText(group.Refunds)}
            </td>
            <td data-label="Net" className="num">
              {sumsText(group.Net)}
            </td>
          </tr>
        )}
      </DataTable>
    </Card>
  );
}
