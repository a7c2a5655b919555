import { Icon, type IconName } from '../../../components/Icon';

export interface LoanFeature {
  readonly title: string;
  readonly icon: IconName;
  readonly text: string;
}

/** The "why borrow with us" grid of a loan page. */
export function LoanFeatures({ title, features }: { title: string; features: readonly LoanFeature[] }) {
  return (
    <section className="section" aria-labelledby="loan-features-title">
      <div className="container">
        <div className="section-header">
          <span className="eyebrow">Why borrow with us</span>
          <h2 id="loan-features-title">{title}</h2>
        </div>
        <div className="grid grid-3">
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
  );
}
