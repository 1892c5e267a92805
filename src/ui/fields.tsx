import { useId, useState, type ReactNode } from 'react';

/** A number input that commits on blur or Enter, within [min, max]; bad input is shown, not applied. */
export function NumberField({
  label,
  value,
  min,
  max,
  step = 1,
  integer = true,
  testId,
  onCommit,
  hint,
}: {
  readonly label: string;
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly step?: number;
  readonly integer?: boolean;
  readonly testId?: string;
  readonly onCommit: (value: number) => void;
  readonly hint?: ReactNode;
}) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(value);
  const id = useId();
  if (shown !== value) {
    // The value changed from outside (a reload): show it (React's "adjust state on prop change").
    setShown(value);
    setText(String(value));
  }
  const commit = () => {
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      setError(`must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
      return;
    }
    setError(null);
    if (v !== value) onCommit(v);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        min={min}
        max={max}
        step={step}
        value={text}
        data-testid={testId}
        aria-invalid={error !== null}
        aria-describedby={error !== null ? `${id}-error` : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      {error !== null ? (
        <span className="field-error" id={`${id}-error`} role="status">
          {label}: {error}
        </span>
      ) : null}
      {hint ? <span className="field-hint">{hint}</span> : null}
    </div>
  );
}

/** A labelled select over string options. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  testId,
  onChange,
  hint,
}: {
  readonly label: string;
  readonly value: T;
  readonly options: readonly { readonly value: T; readonly label: string }[];
  readonly testId?: string;
  readonly onChange: (value: T) => void;
  readonly hint?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} data-testid={testId} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? <span className="field-hint">{hint}</span> : null}
    </div>
  );
}
