/**
 * One labelled text input of a checkout form, with its validation message: the markup the
 * shipping and payment forms share (label, `aria-invalid`, `aria-describedby` pointing at the
 * error), so both forms say an error the same way to people and to A3S Test.
 */
export interface TextFieldProps {
  /** The input's id; the error paragraph is `${id}-error`. */
  id: string;
  label: string;
  /** The class the page's Test Kit `redact` names, when the value is private. */
  className: string;
  value: string;
  /** The message to show, or `undefined` while the field is valid or untouched. */
  error: string | undefined;
  autoComplete: string;
  name?: string;
  placeholder?: string;
  inputMode?: "numeric";
  onChange: (value: string) => void;
  onBlur: () => void;
}

export function TextField({ id, label, error, onChange, ...input }: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-invalid={error !== undefined}
        aria-describedby={error !== undefined ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error !== undefined && (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
