import { Link } from 'react-router';
import { bankDetails } from '../../../components/bankDetails';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../components/PageTitle';

/** /account/support: how to reach the bank (the sidebar's Contact entry). */
export function SupportPage() {
  return (
    <div className="portal-page">
      <PageTitle lead={`Our team is here ${bankDetails.bankingHours}.`}>Contact us</PageTitle>
      <div className="portal-grid-2">
        <article className="portal-card contact-card">
          <Icon name="call" />
          <h2>Call us</h2>
          <p>
            <a href={bankDetails.phoneHref}>{bankDetails.phone}</a>
          </p>
        </article>
        <article className="portal-card contact-card">
          <Icon name="mail" />
          <h2>E-mail us</h2>
          <p>
            <a href={`mailto:${bankDetails.email}`}>{bankDetails.email}</a>
          </p>
        </article>
      </div>
      <article className="portal-card">
        <h2>Send us a message</h2>
        <p>Write to us through the contact form and we will answer by e-mail.</p>
        <Link to="/contact" className="btn btn-secondary">
          Go to the contact page
        </Link>
      </article>
    </div>
  );
}
