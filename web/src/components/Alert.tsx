import type { ReactNode } from 'react';
import './components.css';

/**
 * An in-page message. Errors use role="alert" (announced at once); success and info use role="status".
 */
export function Alert({ kind, children, onDismiss }: { kind: 'error' | 'success' | 'info'; children: ReactNode; onDismiss?: () => void }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <div className="alert-body">{children}</div>
      {onDismiss ? (
        <button type="button" className="alert-dismiss" onClick={onDismiss} aria-label="Dismiss message">
          ×
        </button>
      ) : null}
    </div>
  );
}
