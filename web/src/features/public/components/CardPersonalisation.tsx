import { Link } from 'react-router';
import { Icon } from '../../../components/Icon';

/** Card personalisation: a photo card or a custom design request. */
export function CardPersonalisation() {
  return (
    <section className="section section-muted" id="card-personalisation" aria-labelledby="personalise-title">
      <div className="container">
        <div className="section-header section-header-center">
          <span className="eyebrow">Card personalisation</span>
          <h2 id="personalise-title">Make your card your own</h2>
        </div>
        <div className="grid grid-2">
          <article className="card personalise-card">
            <span className="icon-badge">
              <Icon name="photo" size={28} />
            </span>
            <h3>Photo Card</h3>
            <p>Put a favourite photo on your debit or credit card. It also makes your card easier to recognise as yours.</p>
            <Link to="/cards/credit-card" className="text-link">
              See our cards <Icon name="arrowRight" size={16} />
            </Link>
          </article>
          <article className="card personalise-card">
            <span className="icon-badge">
              <Icon name="edit" size={28} />
            </span>
            <h3>Custom Request</h3>
            <p>Company logo, a braille card or a different name format? Tell us what you need and we will make it happen.</p>
            <Link to="/contact" className="text-link">
              Send a request <Icon name="arrowRight" size={16} />
            </Link>
          </article>
        </div>
      </div>
    </section>
  );
}
