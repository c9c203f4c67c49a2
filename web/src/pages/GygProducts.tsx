// Which activities GetYourGuide may sell, under which GetYourGuide product ID, and each ticket type's
// GetYourGuide category (GYG's list is closed), with the server's reason when a ticket type is not offered.
import { useState, type FormEvent } from 'react';
import { api, type ApiError } from '../api';
import { GYG, GYG_CATEGORIES, type GygProductMapping as Mapping, NOT_OFFERED as NONE } from '../getyourguide';
import { Badge, Card, DataTable, EmptyState, ErrorBanner, Spinner, TextField, useLoad, useToast } from '../ui';

/** The select's "no choice": the category the ticket type's own category implies. */
const DEFAULT = '';

export function GygProducts() {
  const products = useLoad((signal) => api.get<Mapping[]>(`${GYG}/products`, undefined, signal), []);
  return (
    <Card title="Products">
      <p className="card-intro">
        Offer an activity by giving it the product ID you created for it at GetYourGuide. Each ticket type sells as one of GetYourGuide&rsquo;s
        categories; a ticket type without one is not offered, and the reason is shown.
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
  const [productId, setProductId] = useState(mapping.ProductID ?? '');
  const [choices, setChoices] = useState<Record<string, string>>(() => choicesOf(mapping));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const headingId = `gyg-product-${mapping.ActivityID}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const saved = await api.put<Mapping>(`${GYG}/products/${mapping.ActivityID}`, {
        ProductID: productId.trim() === '' ? null : productId.trim(),
        Categories: mapping.TicketTypes.map((type) => ({ Type: type.Type, Category: choices[type.Type] === DEFAULT ? null : choices[type.Type] })),
      });
      onSaved(saved);
      setChoices(choicesOf(saved));
      toast(saved.ProductID ? `${saved.Name} is offered on GetYourGuide as ${saved.ProductID}.` : `${saved.Name} is not offered on GetYourGuide.`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const other = error && !error.fieldError('ProductID') ? error : undefined;
  return (
    <form className="stack fieldset" onSubmit={save} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>
        {mapping.Name} {mapping.ProductID ? <Badge tone="success">Offered as {mapping.ProductID}</Badge> : <Badge>Not offered</Badge>}
      </h3>
      <TextField
        label={`GetYourGuide product ID for ${mapping.Name}`}
        value={productId}
        spellCheck={false}
        onChange={(e) => setProductId(e.target.value)}
        hint="Empty: not offered on GetYourGuide. Letters, digits and _ . : -"
        error={error?.fieldError('ProductID')}
      />
      <DataTable
        rows={mapping.TicketTypes}
        columns={['Ticket type', 'GetYourGuide category', 'On GetYourGuide']}
        label={`Ticket types of ${mapping.Name}`}
      >
        {(type) => (
          <tr key={type.Type}>
            <td>
              {type.Name} <span className="muted mono">{type.Type}</span>
            </td>
            <td>
              <label className="visually-hidden" htmlFor={`${headingId}-${type.Type}`}>
                GetYourGuide category of {type.Name}
              </label>
              <select
                id={`${headingId}-${type.Type}`}
                className="inline-select"
                value={choices[type.Type] ?? DEFAULT}
                onChange={(e) => setChoices({ ...choices, [type.Type]: e.target.value })}
              >
                <option value={DEFAULT}>Default{!type.Chosen && type.Category ? ` (${type.Category})` : ''}</option>
                {GYG_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
                <option value={NONE}>Not on GetYourGuide</option>
              </select>
            </td>
            <td>{type.Offered ? <Badge tone="success">Offered as {type.Category}</Badge> : <span>Not offered: {type.Reason}</span>}</td>
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

/** The select's value per ticket type: the operator's choice (NONE when chosen and no category), else the default. */
function choicesOf(mapping: Mapping): Record<string, string> {
  return Object.fromEntries(mapping.TicketTypes.map((type) => [type.Type, type.Chosen ? (type.Category ?? NONE) : DEFAULT]));
}
