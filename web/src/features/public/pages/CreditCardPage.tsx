import { ButtonLink } from '../../../components/ButtonLink';
import { Icon, type IconName } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { formatWholeDollars } from '../../../components/money';
import { PageBanner } from '../components/PageBanner';
import { CardArt } from '../components/illustrations/CardArt';

const cardTypes: readonly { readonly name: string; readonly icon: IconName; readonly text: string }[] = [
  { name: 'Business', icon: 'briefcase', text: 'Separate company spending, with cards for employees and monthly statements for your accountant.' },
  { name: 'Cashback', icon: 'wallet', text: '2% cash back on every purchase, paid into your account each month.' },
  { name: 'Low Interest', icon: 'percent', text: 'A low ongoing rate for larger purchases you want to pay off over time.' },
  { name: 'Rewards', icon: 'trophy', text: 'Points on everyday spending to redeem for travel, gift cards or statement credit.' },
  { name: 'Travel & Hotel', icon: 'globe', text: 'No foreign transaction fees, travel insurance and points at partner hotels.' },
];

const details: readonly { readonly title: string; readonly icon: IconName; readonly text: string }[] = [
  { title: 'Contactless payments', icon: 'card', text: 'Tap to pay in stores worldwide, or add your card to your phone.' },
  { title: 'Fraud protection', icon: 'shield', text: 'You are not liable for purchases you did not make. We watch for fraud around the clock.' },
  { title: 'Instant controls', icon: 'lock', text: 'Block, unlock or replace your card at any time, and set your own spending limits.' },
];

const eligibility = ['Minimum age 18', 'US resident', 'A funded account with us', 'Open your account online'];

export function CreditCardPage() {
  const offer = `Earn ${formatWholeDollars(200)} after you spend ${formatWholeDollars(1500)} in the first 6 months, plus 2% cash back`;
  return (
    <>
      <PageTitle>Credit Cards</PageTitle>
      <PageBanner
        eyebrow="Credit Cards"
        title="A card for every way you spend"
        art={<CardArt />}
        actions={
          <ButtonLink to="/contact" variant="accent" size="large">
            Apply Now
          </ButtonLink>
        }
      >
        <p className="offer-highlight">
          <strong>{offer}.</strong>
        </p>
        <p>No annual fee on our Cashback card. Offer for new cardholders.</p>
      </PageBanner>

      <section className="section" aria-labelledby="card-types-title">
        <div className="container">
          <div className="section-header">
            <span className="eyebrow">Card types</span>
            <h2 id="card-types-title">Choose your card</h2>
          </div>
          <ul className="card-type-list">
            {cardTypes.map((card) => (
              <li key={card.name} className="card card-type">
                <span className="icon-badge">
                  <Icon name={card.icon} size={26} />
                </span>
                <h3>{card.name}</h3>
                <p>{card.text}</p>
                <ButtonLink to="/contact" variant="secondary" aria-label={`Apply for the ${card.name} card`}>
                  Apply
                </ButtonLink>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-muted" aria-labelledby="card-details-title">
        <div className="container">
          <div className="section-header">
            <span className="eyebrow">Card details</span>
            <h2 id="card-details-title">Security and convenience on every card</h2>
          </div>
          <div className="grid grid-3">
            {details.map((detail) => (
              <article key={detail.title} className="card">
                <span className="icon-badge">
                  <Icon name={detail.icon} size={26} />
                </span>
                <h3>{detail.title}</h3>
                <p>{detail.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section" id="eligibility" aria-labelledby="eligibility-title">
        <div className="container split">
          <div>
            <span className="eyebrow">Eligibility</span>
            <h2 id="eligibility-title">Who can apply</h2>
            <p className="lead">Applying takes a few minutes once you bank with us. You will need:</p>
          </div>
          <div>
            <ul className="check-list">
              {eligibility.map((item) => (
                <li key={item}>
                  <Icon name="check" size={20} /> {item}
                </li>
              ))}
            </ul>
            <ButtonLink to="/signup" size="large">
              Open an Account
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
