import type { ReactNode } from 'react';

export interface PageBannerProps {
  eyebrow: string;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  art?: ReactNode;
}

/** The top band of an inner page: its h1, an introduction, calls to action and an illustration. */
export function PageBanner({ eyebrow, title, children, actions, art }: PageBannerProps) {
  return (
    <section className={`page-banner${art ? ' page-banner-with-art' : ''}`} aria-labelledby="page-title">
      <div className="container page-banner-inner">
        <div className="page-banner-copy">
          <span className="eyebrow page-banner-eyebrow">{eyebrow}</span>
          <h1 id="page-title">{title}</h1>
          {children ? <div className="page-banner-text">{children}</div> : null}
          {actions ? <div className="page-banner-actions">{actions}</div> : null}
        </div>
        {art ? <div className="page-banner-art">{art}</div> : null}
      </div>
    </section>
  );
}
