// The guest's contact fields with inline validation mirroring the API's rules (bookings/schemas.ts
// Customer): names of 1 to 100 printable characters, not blank; an e-mail address; + and 7 to 15 digits.
import type { Customer } from './api';
import { t } from './app';
import { field, h, type Field } from './dom';

const NAME = /^(?=.*\S)[^\u0000-\u001F\u007F]{1,100}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[0-9]{7,15}$/;

export interface CustomerFields {
  element: HTMLElement;
  /** The customer, or undefined after marking the failing fields. */
  read(): Customer | undefined;
  /** Marks the API's field errors (Customer.Email and the like). */
  showErrors(errors: { field: string; message: string }[]): void;
}

export function customerFields(initial?: Customer): CustomerFields {
  const inputs: Record<keyof Customer, { input: HTMLInputElement; field: Field; check: (v: string) => string | undefined }> = {} as never;
  const make = (key: keyof Customer, label: string, attrs: Record<string, string>, check: (v: string) => string | undefined, hint?: string) => {
    const input = h('input', { name: key, required: true, value: initial?.[key] ?? '', ...attrs });
    const f = field(label, input, hint);
    inputs[key] = { input, field: f, check };
    // Checked when the guest leaves the field, and again as they correct it.
    input.addEventListener('blur', () => f.setError(check(input.value.trim())));
    input.addEventListener('input', () => input.hasAttribute('aria-invalid') && f.setError(check(input.value.trim())));
    return f.wrapper;
  };
  const name = (v: string) => (v === '' ? t.required : NAME.test(v) ? undefined : t.required);
  const element = h(
    'fieldset',
    null,
    h('legend', null, t.yourDetails),
    make('FirstName', t.firstName, { autocomplete: 'given-name', maxlength: '100' }, name),
    make('LastName', t.lastName, { autocomplete: 'family-name', maxlength: '100' }, name),
    make('Email', t.email, { type: 'email', autocomplete: 'email', maxlength: '254' }, (v) =>
      v === '' ? t.required : EMAIL.test(v) ? undefined : t.invalidEmail,
    ),
    make(
      'Phone',
      t.phone,
      { type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
      (v) => (v === '' ? t.required : PHONE.test(v.replace(/[\s()-]/g, '')) ? undefined : t.invalidPhone),
      t.phoneHint,
    ),
  );
  return {
    element,
    read() {
      let ok = true;
      for (const { input, field: f, check } of Object.values(inputs)) {
        const error = check(input.value.trim());
        f.setError(error);
        if (error) ok = false;
      }
      if (!ok) return undefined;
      const value = (key: keyof Customer) => inputs[key].input.value.trim();
      return { FirstName: value('FirstName'), LastName: value('LastName'), Email: value('Email'), Phone: value('Phone').replace(/[\s()-]/g, '') };
    },
    showErrors(errors) {
      for (const error of errors) {
        const key = error.field.split('.').pop() as keyof Customer;
        inputs[key]?.field.setError(error.message);
      }
    },
  };
}
