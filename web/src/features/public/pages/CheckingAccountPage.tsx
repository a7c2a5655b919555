import { ButtonLink } from '../../../components/ButtonLink';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { formatWholeDollars } from '../../../components/money';
import { CtaBand } from '../components/CtaBand';
import { PageBanner } from '../components/PageBanner';
import { PhoneArt } from '../components/illustrations/PhoneArt';
import { FeatureSection, type Feature } from '../components/FeatureSection';

const features: readonly Feature[] = [
  { title: 'Free transfers', icon: 'exchange', text: 'Send money to any bank in the US from the app or online banking, at no charge.' },
  { title: 'Debit card included', icon: 'card', text: 'A contactless debit card, with instant block and unlock when you need it.' },
  { title: 'Payment pin', icon: 'lock', text: 'Every transfer is confirmed with your own 6 digit payment pin.' },
  { title: 'Deposit insurance', icon: 'shield', text: `Balances are insured up to ${formatWholeDollars(250_000)} per depositor.` },
];

export function CheckingAccountPage() {
  return (
    <>
      <PageTitle>Checking Account</PageTitle>
      <PageBanner
        eyebrow="Checking Account"
        title="Everyday banking, without the fees"
        art={<PhoneArt />}
        actions={
          <ButtonLink to="/signup" variant="accent" size="large">
            Open a Checking Account
          </ButtonLink>
        }
      >
        <p>Get paid, pay bills and send money in seconds. No monthly maintenance fee and no minimum balance.</p>
      </PageBanner>

      <FeatureSection id="checking-features-title" eyebrow="Features" title="Built for the way you spend" features={features} layout="benefit-grid" />

      <section className="section section-muted" id="joint" aria-labelledby="joint-title">
        <div className="container split">
          <div>
            <span className="eyebrow">Joint Account</span>
            <h2 id="joint-title">Share an account with someone you trust</h2>
            <p className="lead">A joint checking account gives two people equal access to the same money — ideal for partners, families and shared homes.</p>
          </div>
          <ul className="check-list">
            <li>
              <Icon name="check" size={20} /> Each holder gets their own card and sign-in
            </li>
            <li>
              <Icon name="check" size={20} /> Both see every transaction as it happens
            </li>
            <li>
              <Icon name="check" size={20} /> Insured up to {formatWholeDollars(250_000)} for each co-owner
            </li>
          </ul>
        </div>
      </section>

      <CtaBand title="Open your checking account online" actions={<ButtonLink to="/signup" variant="accent" size="large">Get Started</ButtonLink>}>
        Sign up, verify your identity and start banking the same day.
      </CtaBand>
    </>
  );
}
