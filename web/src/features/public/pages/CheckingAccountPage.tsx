import { ButtonLink } from '../../../components/ButtonLink';
import { Icon, type IconName } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { formatWholeDollars } from '../../../components/money';
import { CtaBand } from '../components/CtaBand';
import { PageBanner } from '../components/PageBanner';
import { PhoneArt } from '../components/illustrations/PhoneArt';

const features: readonly { readonly title: string; readonly icon: IconName; readonly text: string }[] = [
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

      <section className="section" aria-labelledby="checking-features-title">
        <div className="container">
          <div className="section-header">
            <span className="eyebrow">Features</span>
            <h2 id="checking-features-title">Built for the way you spend</h2>
          </div>
          <div className="grid benefit-grid">
            {features.map((feature) => (
              <article key={feature.title} className="card">
                <span className="icon-badge">
                  <Icon name={feature.icon} size={26} />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

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
