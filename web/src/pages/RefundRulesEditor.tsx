// The activity's refund rules for guests who cancel online: rows of "at least N hours before: P % back".
// No rows: everything paid goes back (within the time guests may cancel).
import { useId } from 'react';
import type { Activity } from '../api';
import { TextField } from '../ui';

export type RefundRuleInput = { HoursBefore: string; Percent: string };
type RefundRule = Activity['GuestRefundRules'][number];

export const refundRuleInputs = (rules: RefundRule[] | undefined): RefundRuleInput[] =>
  (rules ?? []).map((rule) => ({ HoursBefore: String(rule.HoursBefore), Percent: String(rule.Percent) }));

export const refundRulesOf = (inputs: RefundRuleInput[]): RefundRule[] =>
  inputs.map((input) => ({ HoursBefore: Number(input.HoursBefore), Percent: Number(input.Percent) }));

export function RefundRulesEditor({
  rules,
  onChange,
  error,
}: {
  rules: RefundRuleInput[];
  onChange: (rules: RefundRuleInput[]) => void;
  error?: string;
}) {
  const hintId = useId();
  const set = (index: number, change: Partial<RefundRuleInput>) => onChange(rules.map((rule, i) => (i === index ? { ...rule, ...change } : rule)));
  return (
    <fieldset className="fieldset span-2" aria-describedby={hintId}>
      <legend>Refund when guests cancel online</legend>
      <p id={hintId} className="hint">
        {rules.length === 0
          ? 'No rules: guests get back everything they paid. Add rules to refund less the closer the start.'
          : 'Each rule applies from its hours before the start until the next; after the last, nothing goes back. Guests see these rules before they pay.'}
      </p>
      {rules.map((rule, index) => (
        <div className="field-pair" key={index}>
          <TextField
            label={`Rule ${index + 1}: at least (hours before the start)`}
            type="number"
            min={0}
            max={8760}
            required
            value={rule.HoursBefore}
            onChange={(e) => set(index, { HoursBefore: e.target.value })}
          />
          <TextField
            label={`Rule ${index + 1}: refund (%)`}
            type="number"
            min={0}
            max={100}
            required
            value={rule.Percent}
            onChange={(e) => set(index, { Percent: e.target.value })}
          />
          <button type="button" className="btn btn-secondary" onClick={() => onChange(rules.filter((_, i) => i !== index))}>
            Remove rule {index + 1}
          </button>
        </div>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {rules.length < 10 && (
        <button type="button" className="btn btn-secondary" onClick={() => onChange([...rules, { HoursBefore: '', Percent: '' }])}>
          Add a refund rule
        </button>
      )}
    </fieldset>
  );
}
