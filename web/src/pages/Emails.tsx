import { useState } from 'react';
import { api, ApiError } from '../api';
import { usePageTitle } from '../router';
import { Card, Dialog, EmptyState, ErrorBanner, PageHeader, Spinner, useLoad } from '../ui';
import { cellText, columnsOf, GenericTable, type Row } from './generic';

type Outbox = { available: true; emails: Row[] } | { available: false };
const BODY_FIELDS = ['Body', 'Text', 'Html', 'TextBody', 'HtmlBody'];

export function EmailsPage() {
  usePageTitle('E-mails');
  const [open, setOpen] = useState<Row>();
  const outbox = useLoad<Outbox>(async (signal) => {
    try {
      const data = await api.get<Row[] | { Emails?: Row[] }>('/api/v2/admin/emails', undefined, signal);
      return { available: true, emails: Array.isArray(data) ? data : (data.Emails ?? []) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { available: false };
      throw error;
    }
  }, []);

  return (
    <div className="page">
      <PageHeader title="E-mails" description="Messages slotbook sends on your behalf. Without SMTP_URL they wait here in the outbox." />
      <ErrorBanner error={outbox.error} onRetry={outbox.reload} />
      <Card title="Outbox">
        {outbox.loading && !outbox.data ? (
          <Spinner label="Loading e-mails" />
        ) : outbox.data && !outbox.data.available ? (
          <EmptyState icon="mail" title="The e-mail outbox is not available yet">
            This slotbook does not offer the outbox yet (<code>GET /api/v2/admin/emails</code> answers 404). It arrives with a later release.
          </EmptyState>
        ) : outbox.data?.available && outbox.data.emails.length === 0 ? (
          <EmptyState icon="mail" title="No e-mails yet">
            Booking confirmations and waitlist notifications will be listed here.
          </EmptyState>
        ) : (
          outbox.data?.available && (
            <GenericTable
              label="E-mails"
              rows={outbox.data.emails}
              columns={columnsOf(outbox.data.emails, ['To', 'Subject', 'Status', 'CreatedAt', 'SentAt'], ['ID', ...BODY_FIELDS], 6)}
              onOpen={setOpen}
            />
          )
        )}
      </Card>
      <Dialog open={open !== undefined} title={open ? cellText(open.Subject ?? 'E-mail') : ''} onClose={() => setOpen(undefined)} wide>
        {open && (
          <>
            <dl className="facts">
              {Object.entries(open)
                .filter(([key]) => !BODY_FIELDS.includes(key))
                .map(([key, value]) => (
                  <div key={key} className="facts-row">
                    <dt>{key}</dt>
                    <dd>{cellText(value)}</dd>
                  </div>
                ))}
            </dl>
            {BODY_FIELDS.filter((key) => typeof open[key] === 'string').map((key) => (
              <pre key={key} className="email-body">
                {String(open[key])}
              </pre>
            ))}
          </>
        )}
      </Dialog>
    </div>
  );
}
