import { TextField } from '../../components/Field';
import './secondFactor.css';

export interface CodeFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
  readonly label?: string;
  readonly autoFocus?: boolean;
}

/** A 6-digit code of an authenticator app: numeric keyboard on phones, one-time-code autofill. */
export function CodeField({ value, onChange, error, label = 'Authentication code', autoFocus }: CodeFieldProps) {
  return (
    <TextField
      label={label}
      name="code"
      className="sf-code-input"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]*"
      maxLength={7}
      required
      autoFocus={autoFocus}
      hint="The 6-digit code from your authenticator app"
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** The digits of what was typed, when they are six. */
/** A one-time recovery code instead of the six digits (typed as printed: capitals, no spell check). */
export function RecoveryCodeField({ value, onChange, error }: { readonly value: string; readonly onChange: (value: string) => void; readonly error?: string | undefined }) {
  return (
    <TextField
      label="Recovery code"
      name="recoveryCode"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      required
      autoFocus
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function sixDigits(value: string): string | undefined {
  const digits = value.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}
