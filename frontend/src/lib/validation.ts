// Generic form validation (spec section 5): required, minimum, maximum, range, invalid
// type and enum messages, in plain words (the gateway words its refusals the same way);
// no product-specific rule.

export type Rule =
  | { kind: 'required' }
  | { kind: 'minLength'; value: number }
  | { kind: 'maxLength'; value: number }
  | { kind: 'min'; value: number }
  | { kind: 'max'; value: number }
  | { kind: 'range'; min: number; max: number }
  | { kind: 'email' }
  | { kind: 'url' }
  | { kind: 'number' }
  | { kind: 'pattern'; value: RegExp; type: string }
  | { kind: 'enum'; values: readonly string[] };

export const rules = {
  required: (): Rule => ({ kind: 'required' }),
  minLength: (value: number): Rule => ({ kind: 'minLength', value }),
  maxLength: (value: number): Rule => ({ kind: 'maxLength', value }),
  min: (value: number): Rule => ({ kind: 'min', value }),
  max: (value: number): Rule => ({ kind: 'max', value }),
  range: (min: number, max: number): Rule => ({ kind: 'range', min, max }),
  email: (): Rule => ({ kind: 'email' }),
  url: (): Rule => ({ kind: 'url' }),
  number: (): Rule => ({ kind: 'number' }),
  pattern: (value: RegExp, type: string): Rule => ({ kind: 'pattern', value, type }),
  oneOf: (values: readonly string[]): Rule => ({ kind: 'enum', values }),
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function check(rule: Rule, raw: string): string | null {
  const value = raw.trim();
  if (rule.kind === 'required') return value ? null : 'This field is required';
  if (!value) return null; // optional fields are only checked when filled
  const n = Number(value);
  switch (rule.kind) {
    case 'minLength':
      return value.length >= rule.value ? null : `Must be at least ${rule.value} characters`;
    case 'maxLength':
      return value.length <= rule.value ? null : `Must be at most ${rule.value} characters`;
    case 'number':
      return Number.isFinite(n) ? null : 'Must be a number';
    case 'min':
      return Number.isFinite(n) && n >= rule.value ? null : `Must be at least ${rule.value}`;
    case 'max':
      return Number.isFinite(n) && n <= rule.value ? null : `Must be at most ${rule.value}`;
    case 'range':
      return Number.isFinite(n) && n >= rule.min && n <= rule.max
        ? null
        : `Must be between ${rule.min} and ${rule.max}`;
    case 'email':
      return EMAIL.test(value) ? null : 'Must be a valid e-mail address';
    case 'url':
      return /^https?:\/\/\S+$/i.test(value) ? null : 'Must be a web address starting with http:// or https://';
    case 'pattern':
      return rule.value.test(value) ? null : `Must be ${rule.type}`;
    case 'enum':
      return rule.values.includes(value) ? null : `Must be one of: ${rule.values.join(', ')}`;
  }
}

/** The first failing rule's message, or null. */
export function validateField(value: string, fieldRules: Rule[]): string | null {
  for (const rule of fieldRules) {
    const message = check(rule, value);
    if (message) return message;
  }
  return null;
}

export type Schema<K extends string> = Record<K, Rule[]>;

export function validateForm<K extends string>(
  values: Record<K, string>,
  schema: Schema<K>,
): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const key of Object.keys(schema) as K[]) {
    const message = validateField(values[key] ?? '', schema[key]);
    if (message) errors[key] = message;
  }
  return errors;
}
