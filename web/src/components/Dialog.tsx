import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';
import './components.css';

export interface DialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Omit for an information dialog with a single OK button. */
  onCancel?: () => void;
  onConfirm: () => void;
  danger?: boolean;
  busy?: boolean;
}

/**
 * An accessible modal dialog on the native <dialog> element: focus moves into it, Escape cancels,
 * and focus returns to where it was when it closes. Used for confirmations and for messages the spec shows as alerts.
 */
export function Dialog({ open, title, children, confirmLabel = 'OK', cancelLabel = 'Cancel', onCancel, onConfirm, danger, busy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const returnFocus = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      if (returnFocus.current instanceof HTMLElement) returnFocus.current.focus();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        (onCancel ?? onConfirm)();
      }}
    >
      {open ? (
        <div className="dialog-content">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {children ? <div className="dialog-body">{children}</div> : null}
          <div className="dialog-actions">
            {onCancel ? (
              <Button variant="secondary" onClick={onCancel} disabled={busy}>
                {cancelLabel}
              </Button>
            ) : null}
            <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} loading={busy} autoFocus>
              {confirmLabel}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
