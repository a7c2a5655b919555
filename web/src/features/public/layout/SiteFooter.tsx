import { Link } from 'react-router';
import { Icon } from '../../../components/Icon';
import { Logo } from '../../../components/Logo';
import { bankDetails } from '../../../components/bankDetails';
import { formatWholeDollars } from '../../../components/money';

const columns = [
  {
    title: 'Banking',
    links: [
      { label: 'Savings Account', to: '/account/savings' },
      { label: 'Checking Account', to: '/account/checking' },
      { label: 'Credit Cards', to: '/cards/credit-card' },
      { label: 'Home Loan', to: '/loan/home-loan' },
      { label: 'Vehicle Loan', to: '/loan/auto-loan' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About Us', to: '/about' },
      { label: 'Careers', to: '/careers' },
      { label: 'Contact Us', to: '/contact' },
      { label: 'Login', to: '/signin' },
      { label: 'Open an Account', to: '/signup' },
    ],
  },
];

/** The public footer: navigation, customer care contact details and banking hours. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer-grid">
        <div className="site-footer-brand">
          <Logo inverted />
          <p>{bankDetails.tagline}. Savings, checking, cards and loans for individuals and companies.</p>
          <p className="site-footer-note">
            <Icon name="shield" size={20} /> Deposits insured up to {formatWholeDollars(250_000)} per depositor.
          </p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title} className="site-footer-column">
            <h2 className="site-footer-title">{column.title}</h2>
            <ul>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <section aria-labelledby="footer-care" className="site-footer-column">
          <h2 id="footer-care" className="site-footer-title">
            Customer Care
          </h2>
          <address>
            <ul className="site-footer-contact">
              <li>
                <Icon name="call" size={18} />
                <a href={bankDetails.phoneHref}>{bankDetails.phone}</a>
              </li>
              <li>
                <Icon name="mail" size={18} />
                <a href={`mailto:${bankDetails.email}`}>{bankDetails.email}</a>
              </li>
              <li>
                <Icon name="pin" size={18} />
                <span>{bankDetails.address.join(', ')}</span>
              </li>
              <li>
                <Icon name="clock" size={18} />
                <span>
                  Banking hours: <strong>{bankDetails.bankingHours}</strong>
                </span>
              </li>
            </ul>
          </address>
        </section>
      </div>
      <div className="site-footer-bottom">
        <div className="container">
          <p>
            © {new Date().getFullYear()} {bankDetails.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
