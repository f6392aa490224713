import { describe, expect, it } from 'vitest';
import { rules, validateField, validateForm } from '@/lib/validation';

describe('generic validation messages', () => {
  it('covers required, lengths, numbers, ranges, types and enums', () => {
    expect(validateField('', [rules.required()])).toBe('This field is required');
    expect(validateField('ab', [rules.minLength(3)])).toBe('Must be at least 3 characters');
    expect(validateField('abcd', [rules.maxLength(3)])).toBe('Must be at most 3 characters');
    expect(validateField('x', [rules.number()])).toBe('Must be a number');
    expect(validateField('2', [rules.min(3)])).toBe('Must be at least 3');
    expect(validateField('9', [rules.max(3)])).toBe('Must be at most 3');
    expect(validateField('9', [rules.range(1, 5)])).toBe('Must be between 1 and 5');
    expect(validateField('nope', [rules.email()])).toBe('Must be a valid e-mail address');
    expect(validateField('poet', [rules.oneOf(['reader', 'writer'])])).toBe('Must be one of: reader, writer');
  });

  it('never reads like developer output', () => {
    const said = [
      validateField('x', [rules.number()]),
      validateField('nope', [rules.email()]),
      validateField('ftp:x', [rules.url()]),
      validateField('2.5', [rules.pattern(/^\d+$/, 'a whole number')]),
    ];
    expect(said).toEqual([
      'Must be a number',
      'Must be a valid e-mail address',
      'Must be a web address starting with http:// or https://',
      'Must be a whole number',
    ]);
    for (const m of said) expect(m).not.toMatch(/invalid type|expected/i);
  });

  it('checks optional fields only when filled', () => {
    expect(validateField('', [rules.email()])).toBeNull();
    expect(validateForm({ a: '', b: 'x@y.z' }, { a: [rules.required()], b: [rules.email()] })).toEqual({ a: 'This field is required' });
  });
});
