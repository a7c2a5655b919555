import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import './components.css';

interface FieldShell {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** A class of the field's box besides `field` (its layout in a form of its own). */
  fieldClassName?: string;
}

function Shell({ id, label, error, hint, fieldClassName, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className={`field${fieldClassName ? ` ${fieldClassName}` : ''}${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

export function TextField({ label, error, hint, id, fieldClassName, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <Shell id={fieldId} label={label} error={error} hint={hint} fieldClassName={fieldClassName}>
      <input id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(fieldId, error, hint)} {...input} />
    </Shell>
  );
}

export function SelectField({ label, error, hint, id, children, ...select }: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <Shell id={fieldId} label={label} error={error} hint={hint}>
      <select id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(fieldId, error, hint)} {...select}>
        {children}
      </select>
    </Shell>
  );
}

export function TextAreaField({ label, error, hint, id, ...area }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <Shell id={fieldId} label={label} error={error} hint={hint}>
      <textarea id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(fieldId, error, hint)} {...area} />
    </Shell>
  );
}
