import type { ReactNode } from 'react';

/** A small status label; the tone adds colour, the words carry the meaning. */
export function AdminBadge({ tone, children }: { tone: 'good' | 'warn' | 'bad' | 'neutral'; children: ReactNode }) {
  return <span className={`admin-badge admin-badge-${tone}`}>{children}</span>;
}
