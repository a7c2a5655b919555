import './components.css';

export function Spinner({ size = 'medium', label = 'Loading' }: { size?: 'small' | 'medium'; label?: string }) {
  return (
    <span className={`spinner spinner-${size}`} role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** A block shown while a screen's data loads. */
export function LoadingBlock({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-block">
      <Spinner label={label} />
      <span aria-hidden="true">{label}</span>
    </div>
  );
}
