import type { ReactNode } from 'react';
import { Icon } from '../../../components/Icon';
import { formatWholeDollars } from '../../../components/money';
import '../auth.css';

export interface AuthCardProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

/** The frame of the sign-in, sign-up and verification pages: a reassurance panel beside the form card. */
export function AuthCard({ title, intro, children, footer, wide = false }: AuthCardProps) {
  return (
    <section className="auth-page" aria-labelledby="auth-title">
      <div className={`container auth-grid${wide ? ' auth-grid-wide' : ''}`}>
        <aside className="auth-aside" aria-label="Why bank with us">
          <h2 className="auth-aside-title">Secure online banking</h2>
          <ul className="auth-aside-list">
            <li>
              <Icon name="lock" /> Encrypted from your browser to our servers
            </li>
            <li>
              <Icon name="shield" /> Deposits insured up to {formatWholeDollars(250_000)}
            </li>
            <li>
              <Icon name="support" /> Real people to help, 24 hours a day
            </li>
          </ul>
        </aside>
        <div className="auth-card">
          <h1 id="auth-title" className="auth-title">
            {title}
          </h1>
          {intro ? <div className="auth-intro">{intro}</div> : null}
          {children}
          {footer ? <div className="auth-footer">{footer}</div> : null}
        </div>
      </div>
    </section>
  );
}
