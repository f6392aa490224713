import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  error?: string;
  hint?: ReactNode;
  onChange: (e: { target: { value: string } }) => void;
  multiline?: boolean;
  rows?: number;
  trailing?: ReactNode;
}

export function TextField({ label, error, hint, multiline, rows = 4, trailing, className, ...input }: TextFieldProps) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field ${error ? 'field-invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="field-control">
        {multiline ? (
          <textarea
            id={id}
            rows={rows}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy}
            name={input.name}
            value={input.value as string}
            placeholder={input.placeholder}
            maxLength={input.maxLength}
            onChange={input.onChange}
            onBlur={input.onBlur as never}
          />
        ) : (
          <input id={id} aria-invalid={Boolean(error)} aria-describedby={describedBy} {...input} />
        )}
        {trailing}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
