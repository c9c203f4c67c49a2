// Reports: bookings, guests and revenue of a period, per day (a bar chart), per activity and per channel,
// with the rows as a CSV download. Days are activity dates in each activity's own time zone; revenue is
// shown per currency, never added across currencies (docs/reports.md). Below, the period's payments
// (PaymentReport.tsx: gross, refunds and net by the day the money moved).
import { useState } from 'react';
import { api, withQuery } from '../api';
import type { Schemas } from '../api-types';
import { addDays, formatDate, formatNumber, formatShortDate, formatMoney, todayIso } from '../format';
import { setQuery, useLocation, usePageTitle } from '../router';
import {
  Card,
  DataTable,
  EmptyState,
  ErrorBanner,
  figure,
  Icon,
  PageHeader,
  RangePresets,
  SelectField,
  Spinner,
  TextField,
  useLoad,
  type RangePreset,
} from '../ui';
import { PaymentsSection } from './PaymentReport';
import './reports.css';

type Report = Schemas['BookingReport'];
type Group = Report['ByDay'][number];
type Money = Group['Revenue'][number];

const PRESETS: RangePreset[] = [
  { id: 'last7', label: 'Last 7 days', range: () => ({ from: addDays(todayIso(), -6), to: todayIso() }) },
  { id: 'last30', label: 'Last 30 days', range: () => ({ from: addDays(todayIso(), -29), to: todayIso() }) },
  { id: 'next30', label: 'Next 30 days', range: () => ({ from: todayIso(), to: addDays(todayIso(), 29) }) },
  { id: 'month', label: 'This month', range: () => ({ from: `${todayIso().slice(0, 8)}01`, to: monthEnd(todayIso()) }) },
];

/** The last day of the date's month. */
function monthEnd(date: string): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

const moneyText = (revenue: Money[]) => (revenue.length === 0 ? '–' : revenue.map((m) => formatMoney(m.Amount, m.Currency)).join(' · '));

export function ReportsPage() {
  usePageTitle('Reports');
  const { search } = useLocation();
  const from = search.get('from') ?? addDays(todayIso(), -29);
  const to = search.get('to') ?? todayIso();
  const [metric, setMetric] = useState('Bookings');
  const report = useLoad((signal) => api.get<Report>('/api/v2/admin/reports/bookings', { From: from, To: to }, signal), [from, to]);
  const data = report.data;
  const currencies = data?.Totals.Revenue.map((m) => m.Currency) ?? [];
  const chartMetric = metric === 'Bookings' || metric === 'Guests' || currencies.includes(metric) ? metric : 'Bookings';
  const csv = withQuery('/api/v2/admin/reports/bookings/export', { From: from, To: to });

  return (
    <div className="page">
      <PageHeader
        title="Reports"
        description="Confirmed bookings, guests and revenue by activity date (in each activity's time zone). Cancelled bookings are counted apart; revenue is per currency. Payments, refunds and net follow, by the day the money moved."
        actions={
          <a className="btn btn-secondary" href={csv} download>
            <Icon name="download" /> Download CSV
          </a>
        }
      />
      <Card className="filters-card">
        <RangePresets presets={PRESETS} from={from} to={to} label="Period" onPick={(range) => setQuery({ from: range.from, to: range.to })} />
        <div className="filters filters-narrow">
          <TextField label="From" type="date" value={from} max={to} onChange={(e) => e.target.value && setQuery({ from: e.target.value })} />
          <TextField label="To" type="date" value={to} min={from} onChange={(e) => e.target.value && setQuery({ to: e.target.value })} />
        </div>
      </Card>
      <ErrorBanner error={report.error} onRetry={report.reload} />
      {report.loading && !data && <Spinner label="Loading the report" />}
      {data && (
        <>
          <div className="stat-cards report-totals">
            <div className="stat-card">
              <span className="stat-label">Bookings</span>
              <span className="stat-value" data-testid="total-bookings">
                {formatNumber(data.Totals.Bookings)}
              </span>
              <span className="stat-sub">{data.Totals.CancelledBookings} cancelled</span>
            </div>
            <div className="stat-card">
              <span className="stat-label">Guests</span>
              <span className="stat-value" data-testid="total-guests">
                {formatNumber(data.Totals.Guests)}
              </span>
            </div>
            <div className="stat-card">
              <span className="stat-label">Revenue</span>
              <span className="stat-value report-money" data-testid="total-revenue">
                {data.Totals.Revenue.length === 0
                  ? '–'
                  : data.Totals.Revenue.map((m) => <span key={m.Currency}>{formatMoney(m.Amount, m.Currency)}</span>)}
              </span>
            </div>
          </div>
          <Card
            title="Per day"
            actions={
              <SelectField label="Show" className="chart-metric" value={chartMetric} onChange={(e) => setMetric(e.target.value)}>
                <option value="Bookings">Bookings</option>
                <option value="Guests">Guests</option>
                {currencies.map((currency) => (
                  <option key={currency} value={currency}>
                    Revenue in {currency}
                  </option>
                ))}
              </SelectField>
            }
          >
            {data.Totals.Bookings === 0 && data.Totals.CancelledBookings === 0 ? (
              <EmptyState icon="usage" title="No bookings in this period">
                Choose another period, or wait for the first bookings.
              </EmptyState>
            ) : (
              <DayChart days={data.ByDay} metric={chartMetric} />
            )}
          </Card>
          <div className="report-tables">
            <GroupTable title="Per activity" groups={data.ByActivity} />
            <GroupTable title="Per channel" groups={data.ByChannel} />
          </div>
        </>
      )}
      <PaymentsSection from={from} to={to} />
    </div>
  );
}

function valueOf(group: Group, metric: string): number {
  if (metric === 'Bookings') return group.Bookings;
  if (metric === 'Guests') return group.Guests;
  return group.Revenue.find((m) => m.Currency === metric)?.Amount ?? 0;
}

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 56 };

/** One bar per day (a small inline SVG; no chart library). */
function DayChart({ days, metric }: { days: Group[]; metric: string }) {
  const isMoney = metric !== 'Bookings' && metric !== 'Guests';
  const show = (value: number) => (isMoney ? formatMoney(value, metric) : formatNumber(value));
  const max = Math.max(0, ...days.map((d) => valueOf(d, metric)));
  const scale = max > 0 ? max : 1;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, days.length);
  const barW = Math.max(1, Math.min(30, step * 0.72));
  const labelEvery = Math.ceil(days.length / 7);
  const label = `${metric === 'Bookings' || metric === 'Guests' ? metric : `Revenue in ${metric}`} per day, ${formatDate(days[0]!.Key)} to ${formatDate(days[days.length - 1]!.Key)}; highest day ${show(max)}`;
  return (
    <figure className="chart report-chart">
      <svg viewBox={`0 0 ${W} ${H}`} className="chart-svg" role="img" aria-label={label}>
        {[0, 0.5, 1].map((f) => {
          const y = PAD.top + innerH * (1 - f);
          return (
            <g key={f}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} className="chart-grid" />
              <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="chart-axis">
                {isMoney ? formatMoney(Math.round(scale * f), metric) : formatNumber(Math.round(scale * f * 10) / 10)}
              </text>
            </g>
          );
        })}
        {days.map((day, index) => {
          const value = valueOf(day, metric);
          const h = (value / scale) * innerH;
          return (
            <g key={day.Key}>
              <rect
                className="report-bar"
                x={PAD.left + index * step + (step - barW) / 2}
                y={PAD.top + innerH - h}
                width={barW}
                height={Math.max(value > 0 ? 1.5 : 0, h)}
                rx={Math.min(3, barW / 3)}
                data-date={day.Key}
                data-value={value}
              >
                <title>{`${formatDate(day.Key)}: ${show(value)}`}</title>
              </rect>
              {index % labelEvery === 0 && (
                <text x={PAD.left + index * step + step / 2} y={H - 6} textAnchor="middle" className="chart-axis">
                  {formatShortDate(day.Key)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function GroupTable({ title, groups }: { title: string; groups: Group[] }) {
  return (
    <Card title={title}>
      <DataTable
        rows={groups}
        columns={[title === 'Per activity' ? 'Activity' : 'Channel', figure('Bookings'), figure('Guests'), figure('Revenue'), figure('Cancelled')]}
        label={title}
        scrollable
        empty={<p className="muted">No bookings.</p>}
      >
        {(group) => (
          <tr key={group.Key} data-key={group.Key}>
            <td data-label={title === 'Per activity' ? 'Activity' : 'Channel'}>{group.Label}</td>
            <td data-label="Bookings" className="num">
              {formatNumber(group.Bookings)}
            </td>
            <td data-label="Guests" className="num">
              {formatNumber(group.Guests)}
            </td>
            <td data-label="Revenue" className="num">
              {moneyText(group.Revenue)}
            </td>
            <td data-label="Cancelled" className="num">
              {formatNumber(group.CancelledBookings)}
            </td>
          </tr>
        )}
      </DataTable>
    </Card>
  );
}
