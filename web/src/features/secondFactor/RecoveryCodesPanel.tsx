import { useEffect, useId, useRef, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import './secondFactor.css';

export interface RecoveryCodesPanelProps {
  readonly codes: readonly string[];
  /** Shown once the person confirms they saved the codes. */
  readonly continueLabel: string;
  readonly onContinue: () => void;
}

/** The file a download gives: one code a line, with a line saying what they are. */
export function recoveryCodesText(codes: readonly string[]): string {
  return `Summit Bank recovery codes. Each works once, instead of a code from your authenticator app.\n\n${codes.join('\n')}\n`;
}

/**
 * The ten recovery codes, shown once: copy them, download them as a text file, and confirm they are saved before
 * going on. Focus moves to the heading so that a screen reader announces them.
 */
export function RecoveryCodesPanel({ codes, continueLabel, onContinue }: RecoveryCodesPanelProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'summit-bank-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="sf-step-title">
        Save your recovery codes
      </h2>
      <p>
        If you lose your phone, sign in with one of these codes instead of a code from the app. Each works once. They are shown only now:
        keep them somewhere safe.
      </p>
      <ol className="sf-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="sf-actions">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button variant="secondary" onClick={download}>
          Download codes
        </Button>
      </div>
      <div aria-live="polite">
        {copied === 'copied' ? <Alert kind="success">Recovery codes copied</Alert> : null}
        {copied === 'failed' ? <Alert kind="error">Could not copy: select the codes and copy them, or download them</Alert> : null}
      </div>
      <label className="sf-check">
        <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} />
        <span>I have saved my recovery codes</span>
      </label>
      <Button onClick={onContinue} disabled={!saved} className="btn-block">
        {continueLabel}
      </Button>
    </section>
  );
}
