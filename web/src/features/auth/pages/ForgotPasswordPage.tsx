import { Link } from 'react-router';
import { ButtonLink } from '../../../components/ButtonLink';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { bankDetails } from '../../../components/bankDetails';
import { AuthCard } from '../components/AuthCard';

/** How to reset a password: our customer care team does it after confirming who you are. */
export function ForgotPasswordPage() {
  return (
    <>
      <PageTitle>Reset your password</PageTitle>
      <AuthCard
        title="Reset your password"
        intro={<p>For your security, passwords are reset by our customer care team once they have confirmed who you are.</p>}
        footer={
          <p>
            Remembered it? <Link to="/signin">Back to login</Link>
          </p>
        }
      >
        <ul className="reset-options">
          <li>
            <Icon name="call" />
            <div>
              <strong>Call us</strong>
              <p>
                <a href={bankDetails.phoneHref}>{bankDetails.phone}</a>, {bankDetails.bankingHours}
              </p>
            </div>
          </li>
          <li>
            <Icon name="mail" />
            <div>
              <strong>E-mail us</strong> from the address you signed up with
              <p>
                <a href={`mailto:${bankDetails.email}?subject=Password%20reset`}>{bankDetails.email}</a>
              </p>
            </div>
          </li>
        </ul>
        <ButtonLink to="/contact" className="btn-block" size="large">
          Send us a message
        </ButtonLink>
      </AuthCard>
    </>
  );
}
