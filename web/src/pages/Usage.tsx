import { useMemo, useState } from 'react';
import { api, ApiError, type DailyUsage, type MeterTotal, type UsageSummary } from '../api';
import { addDays, daysBetween, formatDate, formatNumber, formatShortDate, utcToday } from '../format';
import { csv, downloadCsv } from '../csv';
import { setQuery, useLocation, usePageTitle } from '../router';
import { Badge, Card, EmptyState, ErrorBanner, Icon, PageHeader, RangePresets, Spinner, TextField, useLoad, type RangePreset } from '../ui';

const BUILT_IN = new Set(['order-completed', 'waitlist-notified', 'workflow-email-sent']);
const COLORS = ['#0f766e', '#4f46e5', '#c2410c', '#0369a1', '#a21caf', '#4d7c0f', '#b45309', '#be123c'];
const MAX_DAYS = 366;

function monthStart(date: string) {
  return `${date.slice(0, 7)}-01`;
}

const PRESETS: RangePreset[] = [
  { id: '7', label: 'Last 7 days', range: () => ({ from: addDays(utcToday(), -6), to: utcToday() }) },
  { id: '30', label: 'Last 30 days', range: () => ({ from: addDays(utcToday(), -29), to: utcToday() }) },
  { id: 'month', label: 'This month', range: () => ({ from: monthStart(utcToday()), to: utcToday() }) },
  {
    id: 'last-month',
    label: 'Last month',
    range: () => {
      const end = addDays(monthStart(utcToday()), -1);
      return { from: monthStart(end), to: end };
    },
  },
  { id: '90', label: 'Last 90 days', range: () => ({ from: addDays(utcToday(), -89), to: utcToday() }) },
] as const;

type Daily = { available: true; data: DailyUsage } | { available: false };

export function UsagePage() {
  usePageTitle('Usage');
  const { search } = useLocation();
  const fallback = PRESETS[1]!.range();
  const from = search.get('from') ?? fallback.from;
  const to = search.get('to') ?? fallback.to;
  const rangeError = to < from ? 'The end is before the start.' : daysBetween(from, to) >= MAX_DAYS ? 'Choose at most a year.' : undefined;

  const summary = useLoad(
    (signal) => (rangeError ? Promise.resolve(undefined) : api.get<UsageSummary>('/api/v2/usage/meters', { from, to }, signal)),
    [from, to, rangeError],
  );
  const daily = useLoad<Daily | undefined>(
    async (signal) => {
      if (rangeError) return undefined;
      try {
        return { available: true, data: await api.get<DailyUsage>('/api/v2/usage/meters/daily', { from, to }, signal) };
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return { available: false };
        throw error;
      }
    },
    [from, to, rangeError],
  );

  const meters = summary.data?.Meters ?? [];
  const colorOf = useMemo(() => {
    const map = new Map<string, string>();
    meters.forEach((meter, index) => map.set(meter.Meter, COLORS[index % COLORS.length]!));
    return (meter: string) => map.get(meter) ?? COLORS[0]!;
  }, [meters]);
  const days = rangeError ? [] : Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => addDays(from, i));
  const perMeter = useMemo(() => {
    const map = new Map<string, Map<string, MeterTotal>>();
    if (daily.data?.available) {
      for (const day of daily.data.data.Days) {
        for (const meter of day.Meters) {
          if (!map.has(meter.Meter)) map.set(meter.Meter, new Map());
          map.get(meter.Meter)!.set(day.Date, meter);
        }
      }
    }
    return map;
  }, [daily.data]);

  function downloadSummary() {
    if (!summary.data) return;
    downloadCsv(
      `slotbook-usage-${from}-to-${to}.csv`,
      csv([['Meter', 'TotalUsage', 'EventCount'], ...meters.map((m) => [m.Meter, m.TotalUsage, m.EventCount])]),
    );
  }
  function downloadDaily() {
    if (!daily.data?.available) return;
    const rows: (string | number)[][] = [['Date', 'Meter', 'TotalUsage', 'EventCount']];
    for (const day of daily.data.data.Days) for (const m of day.Meters) rows.push([day.Date, m.Meter, m.TotalUsage, m.EventCount]);
    downloadCsv(`slotbook-usage-daily-${from}-to-${to}.csv`, csv(rows));
  }

  return (
    <div className="page">
      <PageHeader
        title="Usage"
        description="Metered usage per UTC day: your own meters and the built-in ones the platform records."
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={downloadSummary} disabled={!summary.data}>
              <Icon name="download" />
              Summary CSV
            </button>
            {daily.data?.available && (
              <button type="button" className="btn btn-secondary" onClick={downloadDaily}>
                <Icon name="download" />
                Daily CSV
              </button>
            )}
          </>
        }
      />
      <Card className="filters-card">
        <RangePresets presets={PRESETS} from={from} to={to} label="Period" onPick={setQuery} />
        <div className="filters filters-narrow">
          <TextField
            label="From (UTC)"
            type="date"
            value={from}
            max={to}
            onChange={(e) => e.target.value && setQuery({ from: e.target.value, to })}
          />
          <TextField
            label="To (UTC)"
            type="date"
            value={to}
            min={from}
            onChange={(e) => e.target.value && setQuery({ from, to: e.target.value })}
            error={rangeError}
          />
        </div>
      </Card>
      <ErrorBanner error={summary.error} onRetry={summary.reload} />

      <div className="stat-cards" aria-live="polite">
        <div className="stat-card">
          <span className="stat-label">Total usage</span>
          <span className="stat-value" data-testid="total-usage">
            {summary.data ? formatNumber(summary.data.Totals.Usage) : '–'}
          </span>
          <span className="stat-sub">
            all meters, {formatShortDate(from)} – {formatShortDate(to)}
          </span>
        </div>
        <div className="stat-card">
          <span className="stat-label">Events</span>
          <span className="stat-value" data-testid="total-events">
            {summary.data ? formatNumber(summary.data.Totals.Events) : '–'}
          </span>
          <span className="stat-sub">usage entries recorded</span>
        </div>
        <div className="stat-card">
          <span className="stat-label">Meters</span>
          <span className="stat-value">{summary.data ? meters.length : '–'}</span>
          <span className="stat-sub">with entries in the period</span>
        </div>
      </div>

      <Card title="Per day">
        {summary.loading && !summary.data && <Spinner label="Loading usage" />}
        <ErrorBanner error={daily.error} onRetry={daily.reload} />
        {daily.data && !daily.data.available ? (
          <EmptyState icon="usage" title="Daily figures are not available on this server">
            This slotbook does not offer <code>GET /api/v2/usage/meters/daily</code> yet, so there is no chart. The totals and the table below are
            complete.
          </EmptyState>
        ) : summary.data && meters.length === 0 ? (
          <EmptyState icon="usage" title="No usage in this period">
            Entries recorded with <code>POST /api/v2/usage/meters</code> and the platform's built-in meters show up here.
          </EmptyState>
        ) : (
          daily.data?.available && (
            <div className="charts">
              {meters.map((meter) => (
                <MeterChart
                  key={meter.Meter}
                  meter={meter}
                  color={colorOf(meter.Meter)}
                  days={days}
                  values={perMeter.get(meter.Meter) ?? new Map()}
                />
              ))}
            </div>
          )
        )}
        {daily.data?.available && meters.length > 0 && (
          <details className="daily-table">
            <summary>Daily figures as a table</summary>
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Date (UTC)</th>
                    {meters.map((m) => (
                      <th key={m.Meter} scope="col" className="num">
                        {m.Meter}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {daily.data.data.Days.map((day) => (
                    <tr key={day.Date}>
                      <th scope="row">{formatDate(day.Date)}</th>
                      {meters.map((m) => (
                        <td key={m.Meter} className="num">
                          {formatNumber(day.Meters.find((x) => x.Meter === m.Meter)?.TotalUsage ?? 0)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        )}
      </Card>

      <Card title="Per meter" className="table-card">
        {summary.data && meters.length > 0 ? (
          <div className="table-wrap">
            <table className="table usage-table">
              <thead>
                <tr>
                  <th scope="col">Meter</th>
                  <th scope="col" className="num">
                    Total usage
                  </th>
                  <th scope="col" className="num">
                    Events
                  </th>
                  <th scope="col" className="num">
                    Average per event
                  </th>
                </tr>
              </thead>
              <tbody>
                {meters.map((meter) => (
                  <tr key={meter.Meter} data-meter={meter.Meter}>
                    <td data-label="Meter">
                      <span className="swatch" style={{ background: colorOf(meter.Meter) }} aria-hidden="true" />
                      <span className="mono">{meter.Meter}</span> {BUILT_IN.has(meter.Meter) && <Badge tone="info">built-in</Badge>}
                    </td>
                    <td data-label="Total usage" className="num" data-value={meter.TotalUsage}>
                      {formatNumber(meter.TotalUsage)}
                    </td>
                    <td data-label="Events" className="num" data-value={meter.EventCount}>
                      {formatNumber(meter.EventCount)}
                    </td>
                    <td data-label="Average per event" className="num">
                      {meter.EventCount ? formatNumber(Math.round((meter.TotalUsage / meter.EventCount) * 1000) / 1000) : '–'}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">All meters</th>
                  <td className="num strong">{formatNumber(summary.data.Totals.Usage)}</td>
                  <td className="num strong">{formatNumber(summary.data.Totals.Events)}</td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </div>
        ) : (
          summary.data && <p className="muted">No meters had entries in this period.</p>
        )}
      </Card>
    </div>
  );
}

const W = 640;
const H = 150;
const PAD = { top: 12, right: 8, bottom: 22, left: 44 };

/** One meter's usage per day as bars; hovering or focusing a bar shows its figures. */
function MeterChart({ meter, color, days, values }: { meter: MeterTotal; color: string; days: string[]; values: Map<string, MeterTotal> }) {
  const [active, setActive] = useState<number>();
  const max = Math.max(0, ...days.map((d) => values.get(d)?.TotalUsage ?? 0));
  const scale = niceMax(max);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, days.length);
  const barW = Math.max(1, Math.min(28, step * 0.72));
  const sum = days.reduce((s, d) => s + (values.get(d)?.TotalUsage ?? 0), 0);
  const activeDay = active !== undefined ? days[active] : undefined;
  const activeValue = activeDay ? values.get(activeDay) : undefined;
  const labelEvery = Math.ceil(days.length / 6);

  return (
    <figure className="chart" data-meter={meter.Meter} data-sum={Math.round(sum * 1e6) / 1e6}>
      <figcaption className="chart-caption">
        <span className="chart-name">
          <span className="swatch" style={{ background: color }} aria-hidden="true" />
          <span className="mono">{meter.Meter}</span>
        </span>
        <span className="chart-readout" aria-live="polite">
          {activeDay ? (
            <>
              {formatDate(activeDay)}: <strong>{formatNumber(activeValue?.TotalUsage ?? 0)}</strong> ({activeValue?.EventCount ?? 0} events)
            </>
          ) : (
            <>
              <strong>{formatNumber(meter.TotalUsage)}</strong> in {meter.EventCount} events
            </>
          )}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="chart-svg"
        role="img"
        aria-label={`${meter.Meter} per day: total ${formatNumber(meter.TotalUsage)}, highest day ${formatNumber(max)}`}
        onMouseLeave={() => setActive(undefined)}
      >
        {[0, 0.5, 1].map((f) => {
          const y = PAD.top + innerH * (1 - f);
          return (
            <g key={f}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} className="chart-grid" />
              <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="chart-axis">
                {formatAxis(scale * f)}
              </text>
            </g>
          );
        })}
        {days.map((day, index) => {
          const value = values.get(day)?.TotalUsage ?? 0;
          const h = scale > 0 ? (value / scale) * innerH : 0;
          const x = PAD.left + index * step + (step - barW) / 2;
          return (
            <g key={day} onMouseEnter={() => setActive(index)}>
              <rect x={PAD.left + index * step} y={PAD.top} width={step} height={innerH} fill="transparent" />
              <rect
                x={x}
                y={PAD.top + innerH - h}
                width={barW}
                height={Math.max(value > 0 ? 1.5 : 0, h)}
                rx={Math.min(3, barW / 3)}
                fill={color}
                opacity={active === undefined || active === index ? 1 : 0.45}
                data-date={day}
                data-value={value}
              >
                <title>{`${formatDate(day)}: ${formatNumber(value)}`}</title>
              </rect>
              {(index % labelEvery === 0 || index === days.length - 1) &&
                days.length > 1 &&
                index + labelEvery / 2 <= days.length - 1 + (index === days.length - 1 ? 1 : 0) && (
                  <text x={PAD.left + index * step + step / 2} y={H - 6} textAnchor="middle" className="chart-axis">
                    {formatShortDate(day)}
                  </text>
                )}
            </g>
          );
        })}
        {days.length === 1 && (
          <text x={PAD.left + step / 2} y={H - 6} textAnchor="middle" className="chart-axis">
            {formatShortDate(days[0]!)}
          </text>
        )}
      </svg>
    </figure>
  );
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const f of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (f * power >= value) return f * power;
  return 10 * power;
}

function formatAxis(value: number): string {
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
