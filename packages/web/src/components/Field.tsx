import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Inline validation message; marks the input invalid. */
  error?: string | null;
  hint?: string;
  /** Content after the input, e.g. a "get code" button. */
  trailing?: ReactNode;
}

/** A labelled input row with its error shown right under it (docs/product.md §5 inline validation). */
export function Field({ label, value, onChange, error, hint, trailing, id, ...rest }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-row">
        <label className="field-label" htmlFor={inputId}>
          {label}
        </label>
        <input
          {...rest}
          id={inputId}
          className="field-input"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {trailing}
      </div>
      {hint && !error && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

type PasswordProps = Omit<FieldProps, 'type' | 'trailing'>;

/** A password field with a show/hide toggle. */
export function PasswordField(props: PasswordProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          className="field-icon-button"
          aria-label={visible ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOutline aria-hidden="true" /> : <EyeInvisibleOutline aria-hidden="true" />}
        </button>
      }
    />
  );
}
