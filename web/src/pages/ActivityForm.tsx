import { useMemo, useState, type FormEvent } from 'react';
import type { ApiError, Activity } from '../api';
import { Checkbox, ErrorBanner, SelectField, TextArea, TextField } from '../ui';
import { RefundRulesEditor, refundRuleInputs, refundRulesOf } from './RefundRulesEditor';
import { ActivityDetailsFields, detailsInput, detailsOf } from './ActivityDetailsFields';

function supported(kind: 'timeZone' | 'currency', fallback: string[]): string[] {
  try {
    return (Intl as unknown as { supportedValuesOf(kind: string): string[] }).supportedValuesOf(kind);
  } catch {
    return fallback;
  }
}

export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export type ActivityInput = Pick<
  Activity,
  | 'Name'
  | 'Description'
  | 'DurationMinutes'
  | 'Timezone'
  | 'Currency'
  | 'UnitPrice'
  | 'MaxParticipantsPerBooking'
  | 'AvailabilityType'
  | 'RequiredContactFields'
  | 'GuestCancelHours'
  | 'GuestRescheduleHours'
  | 'GuestRefundRules'
  | 'MeetingPoint'
  | 'Inclusions'
  | 'WhatToBring'
  | 'Deposit'
  | 'BalanceDueDays'
>;

/** What an OCTo reseller's confirmation can be made to tell about the guest. */
const CONTACT_FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['emailAddress', 'E-mail'],
  ['phoneNumber', 'Phone'],
] as const;

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Create or edit an activity. The price is typed in the currency's major unit and sent in minor units. */
export function ActivityForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Activity;
  submitLabel: string;
  onSubmit: (input: ActivityInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const zones = useMemo(() => supported('timeZone', [browserZone, 'UTC']), []);
  const currencies = useMemo(() => supported('currency', ['EUR', 'USD', 'GBP', 'JPY', 'CHF']), []);
  const [name, setName] = useState(initial?.Name ?? '');
  const [description, setDescription] = useState(initial?.Description ?? '');
  const [duration, setDuration] = useState(String(initial?.DurationMinutes ?? 60));
  const [timezone, setTimezone] = useState(initial?.Timezone ?? browserZone);
  const [currency, setCurrency] = useState(initial?.Currency ?? 'EUR');
  const digits = currencyDigits(currency);
  const [price, setPrice] = useState(initial ? String(initial.UnitPrice / 10 ** currencyDigits(initial.Currency)) : '');
  const [max, setMax] = useState(String(initial?.MaxParticipantsPerBooking ?? 10));
  const [availabilityType, setAvailabilityType] = useState(initial?.AvailabilityType ?? 'start_time');
  const [contactFields, setContactFields] = useState<string[]>(initial?.RequiredContactFields ?? ['firstName', 'lastName']);
  // Empty: guests may not cancel online (null); a number: until that many hours before the start.
  const [cancelHours, setCancelHours] = useState(
    initial?.GuestCancelHours === null || initial?.GuestCancelHours === undefined ? '' : String(initial.GuestCancelHours),
  );
  // The same for moving the booking to another time of the activity (docs/bookings.md).
  const [moveHours, setMoveHours] = useState(
    initial?.GuestRescheduleHours === null || initial?.GuestRescheduleHours === undefined ? '' : String(initial.GuestRescheduleHours),
  );
  const [refundRules, setRefundRules] = useState(refundRuleInputs(initial?.GuestRefundRules));
  const [details, setDetails] = useState(detailsInput(initial));
  // Pay in full, or a deposit per booking: a percentage or a fixed amount (decimal text in the currency).
  const [depositKind, setDepositKind] = useState<'none' | 'percent' | 'amount'>(
    !initial?.Deposit ? 'none' : 'Percent' in initial.Deposit ? 'percent' : 'amount',
  );
  const [depositValue, setDepositValue] = useState(
    !initial?.Deposit ? '' : 'Percent' in initial.Deposit ? String(initial.Deposit.Percent) : initial.Deposit.Amount,
  );
  const [balanceDays, setBalanceDays] = useState(
    initial?.BalanceDueDays === null || initial?.BalanceDueDays === undefined ? '' : String(initial.BalanceDueDays),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit({
        Name: name.trim(),
        Description: description,
        DurationMinutes: Number(duration),
        Timezone: timezone,
        Currency: currency,
        UnitPrice: Math.round(Number(price || 0) * 10 ** digits),
        MaxParticipantsPerBooking: Number(max),
        AvailabilityType: availabilityType,
        RequiredContactFields: contactFields,
        GuestCancelHours: cancelHours.trim() === '' ? null : Number(cancelHours),
        GuestRescheduleHours: moveHours.trim() === '' ? null : Number(moveHours),
        GuestRefundRules: refundRulesOf(refundRules),
        ...detailsOf(details),
        Deposit: depositKind === 'none' ? null : depositKind === 'percent' ? { Percent: Number(depositValue) } : { Amount: depositValue.trim() },
        BalanceDueDays: depositKind === 'none' || balanceDays.trim() === '' ? null : Number(balanceDays),
      });
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  const fieldError = (field: string) => error?.fieldError(field);

  return (
    <form onSubmit={submit} noValidate className="form-grid">
      <TextField
        label="Name"
        className="span-2"
        required
        maxLength={200}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError('Name')}
        placeholder="Sunset Kayak Tour"
      />
      <TextArea
        label="Description"
        className="span-2"
        rows={3}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={fieldError('Description')}
        hint="Shown to partners with the product."
      />
      <SelectField
        label="Sold by"
        className="span-2"
        value={availabilityType}
        onChange={(e) => setAvailabilityType(e.target.value as Activity['AvailabilityType'])}
        error={fieldError('AvailabilityType')}
        hint={
          availabilityType === 'opening_hours'
            ? 'One timeslot a day: its start is the opening time, the duration the opening hours; tickets are for the day.'
            : undefined
        }
      >
        <option value="start_time">Start times (tours, classes, games)</option>
        <option value="opening_hours">Opening hours with a daily capacity (attractions)</option>
      </SelectField>
      <TextField
        label="Duration (minutes)"
        type="number"
        min={1}
        max={10080}
        required
        value={duration}
        onChange={(e) => setDuration(e.target.value)}
        error={fieldError('DurationMinutes')}
      />
      <TextField
        label="Max participants per booking"
        type="number"
        min={1}
        max={1000}
        value={max}
        onChange={(e) => setMax(e.target.value)}
        error={fieldError('MaxParticipantsPerBooking')}
      />
      <TextField
        label="Guests may cancel online until (hours before the start)"
        type="number"
        min={0}
        max={8760}
        value={cancelHours}
        onChange={(e) => setCancelHours(e.target.value)}
        error={fieldError('GuestCancelHours')}
        hint="Empty: guests cannot cancel from their e-mail link (they see their booking only)."
      />
      <TextField
        label="Guests may change the time online until (hours before the start)"
        type="number"
        min={0}
        max={8760}
        value={moveHours}
        onChange={(e) => setMoveHours(e.target.value)}
        error={fieldError('GuestRescheduleHours')}
        hint="Empty: guests cannot move their booking themselves. They choose another time of this activity with room; the price stays what they paid."
      />
      {cancelHours.trim() !== '' && (
        <RefundRulesEditor
          rules={refundRules}
          onChange={setRefundRules}
          error={error?.errors.find((e) => e.field.startsWith('GuestRefundRules'))?.message}
        />
      )}
      <SelectField
        label="Time zone"
        value={timezone}
        onChange={(e) => setTimezone(e.target.value)}
        error={fieldError('Timezone')}
        hint="Timeslot dates and times are in this zone."
      >
        {zones.map((zone) => (
          <option key={zone}>{zone}</option>
        ))}
      </SelectField>
      <div className="field-pair">
        <SelectField label="Currency" value={currency} onChange={(e) => setCurrency(e.target.value)} error={fieldError('Currency')}>
          {currencies.map((code) => (
            <option key={code}>{code}</option>
          ))}
        </SelectField>
        <TextField
          label="Price per participant"
          type="number"
          min={0}
          step={digits === 0 ? 1 : 1 / 10 ** digits}
          inputMode="decimal"
          required
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={fieldError('UnitPrice')}
          placeholder={digits === 0 ? '6500' : '49.00'}
        />
      </div>
      <ActivityDetailsFields value={details} onChange={setDetails} fieldError={fieldError} />
      <fieldset className="fieldset span-2">
        <legend>Online payment</legend>
        <div className="field-pair">
          <SelectField label="Guests pay" value={depositKind} onChange={(e) => setDepositKind(e.target.value as typeof depositKind)}>
            <option value="none">In full when booking</option>
            <option value="percent">A deposit: a percentage</option>
            <option value="amount">A deposit: a fixed amount per booking</option>
          </SelectField>
          {depositKind !== 'none' && (
            <TextField
              label={depositKind === 'percent' ? 'Deposit (%)' : `Deposit (${currency})`}
              inputMode="decimal"
              value={depositValue}
              onChange={(e) => setDepositValue(e.target.value)}
              error={fieldError('Deposit.Amount') ?? fieldError('Deposit.Percent') ?? fieldError('Deposit')}
            />
          )}
        </div>
        {depositKind !== 'none' && (
          <TextField
            label="E-mail the balance link (days before the start)"
            type="number"
            min={0}
            max={365}
            value={balanceDays}
            onChange={(e) => setBalanceDays(e.target.value)}
            error={fieldError('BalanceDueDays')}
            hint="Empty: the balance is collected at check-in."
          />
        )}
      </fieldset>
      <fieldset className="fieldset span-2">
        <legend>Resellers (OCTo) must tell on confirming</legend>
        <div className="checks checks-row">
          {CONTACT_FIELDS.map(([field, label]) => (
            <Checkbox
              key={field}
              label={label}
              checked={contactFields.includes(field)}
              onChange={(e) => setContactFields(e.target.checked ? [...contactFields, field] : contactFields.filter((f) => f !== field))}
            />
          ))}
        </div>
      </fieldset>
      <div className="span-2">
        <ErrorBanner error={error && !error.errors.some((e) => fieldError(e.field) && error.errors.length === 1) ? error : undefined} />
      </div>
      <div className="form-actions span-2">
        {onCancel && (
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
