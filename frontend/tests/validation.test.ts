import { describe, expect, it } from 'vitest';
import { rules, validateField, validateForm } from '@/lib/validation';

describe('generic validation messages', () => {
  it('covers required, lengths, numbers, ranges, types and enums', () => {
    expect(validateField('', [rules.required()])).toBe('This field is required');
    expect(validateField('ab', [rules.minLength(3)])).toBe('Must be at least 3 characters');
    expect(validateField('abcd', [rules.maxLength(3)])).toBe('Must be at most 3 characters');
    expect(validateField('x', [rules.number()])).toBe('Invalid type: expected a number');
    expect(validateField('2', [rules.min(3)])).toBe('Must be at least 3');
    expect(validateField('9', [rules.max(3)])).toBe('Must be at most 3');
    expect(validateField('9', [rules.range(1, 5)])).toBe('Must be between 1 and 5');
    expect(validateField('nope', [rules.email()])).toBe('Invalid type: expected an email address');
    expect(validateField('poet', [rules.oneOf(['reader', 'writer'])])).toBe('Must be one of: reader, writer');
  });

  it('checks optional fields only when filled', () => {
    expect(validateField('', [rules.email()])).toBeNull();
    expect(validateForm({ a: '', b: 'x@y.z' }, { a: [rules.required()], b: [rules.email()] })).toEqual({ a: 'This field is required' });
  });
});
