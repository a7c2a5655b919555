import type { ReactNode } from 'react';

/** A closing call-to-action band at the foot of a page. */
export function CtaBand({ title, children, actions }: { title: string; children?: ReactNode; actions: ReactNode }) {
  return (
    <section className="section" aria-label={title}>
      <div className="container">
        <div className="cta-band">
          <div>
            <h2 className="cta-band-title">{title}</h2>
            {children ? <p className="cta-band-text">{children}</p> : null}
          </div>
          <div className="cta-band-actions">{actions}</div>
        </div>
      </div>
    </section>
  );
}
