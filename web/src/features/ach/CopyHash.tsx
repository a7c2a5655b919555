import { useState } from 'react';
import { Button } from '../../components/Button';
import { copyText } from '../account/model/copyText';
import { shortSha } from './achFormat';

/**
 * A file's SHA-256, shortened (the whole hash on hover) or whole (`full`, on the file's page), with Copy, which copies
 * the whole hash.
 */
export function CopyHash({ sha256, full = false }: { sha256: string; full?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => setState((await copyText(sha256)) ? 'copied' : 'failed');
  return (
    <span className="ach-hash">
      {full ? (
        <span className="ach-mono ach-sha-full">{sha256}</span>
      ) : (
        <abbr title={sha256} className="ach-mono">
          {shortSha(sha256)}
        </abbr>
      )}
      <Button variant="link" className="ach-copy" onClick={() => void copy()}>
        Copy<span className="visually-hidden"> SHA-256 {sha256}</span>
      </Button>
      <span role="status" className="ach-copy-state">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the hash on the file page' : ''}
      </span>
    </span>
  );
}
