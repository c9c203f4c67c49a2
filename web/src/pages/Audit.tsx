// The audit log: who changed what, when and from where, filtered by actor, action, resource and period,
// with each entry's before and after, and the same selection as a CSV download.
import { useState } from 'react';
import { api, withQuery, type AuditEntry, type AuditVocabulary } from '../api';
import { formatInstant } from '../format';
import { setQuery, useLocation, usePageTitle } from '../router';
import { Card, DataTable, EmptyState, ErrorBanner, Icon, PageHeader, SelectField, Spinner, TextField, useLoad } from '../ui';

const PAGE = 50;
const FILTERS = ['Actor', 'Action', 'ResourceType', 'ResourceID', 'From', 'To'] as const;

export function AuditPage() {
  usePageTitle('Audit log');
  const { search } = useLocation();
  const filters = Object.fromEntries(FILTERS.map((name) => [name, search.get(name) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const vocabulary = useLoad((signal) => api.get<AuditVocabulary>('/api/v2/admin/audit/vocabulary', undefined, signal), []);
  const [more, setMore] = useState<AuditEntry[]>([]);
  const entries = useLoad(
    (signal) => {
      setMore([]);
      return api.get<AuditEntry[]>('/api/v2/admin/audit', { ...filters, Limit: PAGE }, signal);
    },
    [search.toString()],
  );
  const [loadingMore, setLoadingMore] = useState(false);
  const all = [...(entries.data ?? []), ...more];
  const last = all[all.length - 1];
  const canLoadMore = all.length > 0 && (more.length > 0 ? more.length % PAGE === 0 : entries.data?.length === PAGE);

  async function loadMore() {
    if (!last) return;
    setLoadingMore(true);
    try {
      const next = await api.get<AuditEntry[]>('/api/v2/admin/audit', { ...filters, Limit: PAGE, Before: last.ID });
      setMore((list) => [...list, ...next]);
    } finally {
      setLoadingMore(false);
    }
  }

  const csv = withQuery('/api/v2/admin/audit/export', filters);
  return (
    <div className="page">
      <PageHeader
        title="Audit log"
        description="Every change made by a user or an API key: who, what, when and from where. Entries can never be changed or deleted."
        actions={
          <a className="btn btn-secondary" href={csv} download>
            <Icon name="download" /> Download CSV
          </a>
        }
      />
      <Card>
        <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the audit log">
          <SelectField label="Who" value={filters.Actor} onChange={(e) => setQuery({ Actor: e.target.value })}>
            <option value="">Anyone</option>
            <option value="key">Any API key</option>
            <option value="user">Any user</option>
            <option value="anonymous">Not signed in</option>
            {vocabulary.data?.Actors.map((actor) => (
              <option key={actor.Actor} value={actor.Actor}>
                {actor.Actor.startsWith('key:') ? `Key: ${actor.Label}` : actor.Label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Action" value={filters.Action} onChange={(e) => setQuery({ Action: e.target.value })}>
            <option value="">Any action</option>
            {vocabulary.data?.Actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </SelectField>
          <SelectField label="Resource" value={filters.ResourceType} onChange={(e) => setQuery({ ResourceType: e.target.value })}>
            <option value="">Any resource</option>
            {vocabulary.data?.ResourceTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Resource ID"
            placeholder="BK-…, s_…, 12"
            value={filters.ResourceID}
            onChange={(e) => setQuery({ ResourceID: e.target.value.trim() })}
          />
          <TextField label="From" type="date" value={filters.From} onChange={(e) => setQuery({ From: e.target.value })} />
          <TextField label="To" type="date" value={filters.To} onChange={(e) => setQuery({ To: e.target.value })} />
        </form>
        <ErrorBanner error={entries.error} onRetry={entries.reload} />
        {entries.loading && !entries.data && <Spinner label="Loading the audit log" />}
        <DataTable
          rows={entries.data || all.length > 0 ? all : undefined}
          columns={['When', 'Who', 'Action', 'Resource', 'Change']}
          label="Audit log entries"
          className="audit-table stacked-table"
          empty={<EmptyState icon="list" title="No entries match these filters" />}
        >
          {(entry) => (
            <tr key={entry.ID}>
              <td data-label="When">{formatInstant(entry.At)}</td>
              <td data-label="Who">
                {entry.Actor.Type === 'key' ? `Key: ${entry.Actor.Label}` : entry.Actor.Label}
                {entry.Address && <div className="muted">{entry.Address}</div>}
              </td>
              <td data-label="Action">
                <code>{entry.Action}</code>
              </td>
              <td data-label="Resource">
                {entry.Resource.Type} {entry.Resource.ID}
              </td>
              <td data-label="Change">
                {entry.Before !== null || entry.After !== null ? (
                  <details>
                    <summary>Before and after</summary>
                    <div className="diff">
                      <div>
                        <strong>Before</strong>
                        <pre>{JSON.stringify(entry.Before, null, 2)}</pre>
                      </div>
                      <div>
                        <strong>After</strong>
                        <pre>{JSON.stringify(entry.After, null, 2)}</pre>
                      </div>
                    </div>
                  </details>
                ) : (
                  '–'
                )}
              </td>
            </tr>
          )}
        </DataTable>
        {canLoadMore && (
          <button type="button" className="btn btn-secondary" disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? 'Loading…' : 'Show older entries'}
          </button>
        )}
      </Card>
    </div>
  );
}
