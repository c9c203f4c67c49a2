// Which activities Viator may sell, under which product option ID, and each ticket type's Viator age band
// (or UNIT, a price per group), with the server's reason when a ticket type is not offered.
import { useState, type FormEvent } from 'react';
import { api, type ApiError } from '../api';
import { Badge, Card, DataTable, EmptyState, ErrorBanner, Spinner, TextField, useLoad, useToast } from '../ui';
import { NOT_OFFERED as NONE, VIATOR, VIATOR_BANDS, type ViatorProductMapping as Mapping } from '../viator';

/** The select's "no choice": the band the ticket type's own category implies. */
const DEFAULT = '';

export function ViatorProducts() {
  const products = useLoad((signal) => api.get<Mapping[]>(`${VIATOR}/products`, undefined, signal), []);
  return (
    <Card title="Products and age bands">
      <p className="card-intro">
        Offer an activity by giving it a product option ID: Viator maps it from the tour list and books by it. Each ticket type sells as one of
        Viator&rsquo;s age bands (or UNIT for a price per group); a ticket type without one is not offered, and the reason is shown.
      </p>
      <ErrorBanner error={products.error} onRetry={products.reload} />
      {!products.data && !products.error && <Spinner />}
      {products.data?.length === 0 && <EmptyState title="No activities yet">Create an activity first, then offer it here.</EmptyState>}
      <div className="stack">
        {products.data?.map((mapping) => (
          <ProductForm
            key={mapping.ActivityID}
            mapping={mapping}
            onSaved={(saved) => products.setData(products.data!.map((m) => (m.ActivityID === saved.ActivityID ? saved : m)))}
          />
        ))}
      </div>
    </Card>
  );
}

function ProductForm({ mapping, onSaved }: { mapping: Mapping; onSaved: (saved: Mapping) => void }) {
  const toast = useToast();
  const [optionId, setOptionId] = useState(mapping.ProductOptionID ?? '');
  const [choices, setChoices] = useState<Record<string, string>>(() => choicesOf(mapping));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const headingId = `viator-product-${mapping.ActivityID}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const saved = await api.put<Mapping>(`${VIATOR}/products/${mapping.ActivityID}`, {
        ProductOptionID: optionId.trim() === '' ? null : optionId.trim(),
        Bands: mapping.TicketTypes.map((type) => ({ Type: type.Type, Band: choices[type.Type] === DEFAULT ? null : choices[type.Type] })),
      });
      onSaved(saved);
      setChoices(choicesOf(saved));
      toast(saved.ProductOptionID ? `${saved.Name} is offered on Viator as ${saved.ProductOptionID}.` : `${saved.Name} is not offered on Viator.`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const other = error && !error.fieldError('ProductOptionID') ? error : undefined;
  return (
    <form className="stack fieldset" onSubmit={save} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>
        {mapping.Name} {mapping.ProductOptionID ? <Badge tone="success">Offered as {mapping.ProductOptionID}</Badge> : <Badge>Not offered</Badge>}{' '}
        {mapping.ProductOptionID && (mapping.Notifying ? <Badge tone="info">Notified</Badge> : <Badge>Not notified yet</Badge>)}
      </h3>
      <TextField
        label={`Viator product option ID for ${mapping.Name}`}
        value={optionId}
        spellCheck={false}
        onChange={(e) => setOptionId(e.target.value)}
        hint="Empty: not offered on Viator. Letters, digits and _ . : - (at most 50)"
        error={error?.fieldError('ProductOptionID')}
      />
      <DataTable rows={mapping.TicketTypes} columns={['Ticket type', 'Viator age band', 'On Viator']} label={`Ticket types of ${mapping.Name}`}>
        {(type) => (
          <tr key={type.Type}>
            <td>
              {type.Name} <span className="muted mono">{type.Type}</span>
            </td>
            <td>
              <label className="visually-hidden" htmlFor={`${headingId}-${type.Type}`}>
                Viator age band of {type.Name}
              </label>
              <select
                id={`${headingId}-${type.Type}`}
                className="inline-select"
                value={choices[type.Type] ?? DEFAULT}
                onChange={(e) => setChoices({ ...choices, [type.Type]: e.target.value })}
              >
                <option value={DEFAULT}>Default{!type.Chosen && type.Band ? ` (${type.Band})` : ''}</option>
                {VIATOR_BANDS.map((band) => (
                  <option key={band} value={band}>
                    {band}
                  </option>
                ))}
                <option value={NONE}>Not on Viator</option>
              </select>
            </td>
            <td>{type.Offered ? <Badge tone="success">Offered as {type.Band}</Badge> : <span>Not offered: {type.Reason}</span>}</td>
          </tr>
        )}
      </DataTable>
      <ErrorBanner error={other} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Save {mapping.Name}
        </button>
      </div>
    </form>
  );
}

/** The select's value per ticket type: the operator's choice (NONE when chosen and no band), else the default. */
function choicesOf(mapping: Mapping): Record<string, string> {
  return Object.fromEntries(mapping.TicketTypes.map((type) => [type.Type, type.Chosen ? (type.Band ?? NONE) : DEFAULT]));
}
