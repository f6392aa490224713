import { useCallback, useState, type FormEvent } from 'react';
import { validateForm, type Schema } from './validation';

/** Minimal controlled-form state with schema validation on submit and on blur. */
export function useForm<K extends string>(initial: Record<K, string>, schema: Schema<K>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});

  const setValue = useCallback((key: K, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  }, []);

  const validateOne = useCallback(
    (key: K) => {
      const found = validateForm({ [key]: values[key] } as Record<K, string>, { [key]: schema[key] } as Schema<K>);
      setErrors((e) => ({ ...e, [key]: found[key] }));
    },
    [schema, values],
  );

  /** Props for an input bound to `key`. */
  const field = (key: K) => ({
    name: key,
    value: values[key],
    onChange: (e: { target: { value: string } }) => setValue(key, e.target.value),
    onBlur: () => {
      if (values[key]) validateOne(key);
    },
    error: errors[key],
  });

  const handleSubmit = (onValid: (values: Record<K, string>) => void | Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    const found = validateForm(values, schema);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    void onValid(values);
  };

  const setError = useCallback((key: K, message: string | undefined) => {
    setErrors((e) => ({ ...e, [key]: message }));
  }, []);

  return { values, errors, setValue, setValues, setError, field, handleSubmit };
}
