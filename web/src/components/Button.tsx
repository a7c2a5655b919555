import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner';
import './components.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  loading?: boolean;
}

export function Button({ variant = 'primary', loading = false, disabled, children, className, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={`btn btn-${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="small" label="Please wait" /> : null}
      <span>{children}</span>
    </button>
  );
}
