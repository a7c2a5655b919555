import { Icon, type IconName } from '../../../components/Icon';

export interface Feature {
  readonly title: string;
  readonly icon: IconName;
  readonly text: string;
}

interface FeatureSectionProps {
  readonly id: string;
  readonly eyebrow: string;
  readonly title: string;
  readonly features: readonly Feature[];
  /** The grid's layout class: `grid-3` (three columns) or `benefit-grid` (as many as fit). */
  readonly layout?: 'grid-3' | 'benefit-grid';
}

/** A product page's section of feature cards under a heading ("Why borrow with us", "Features"). */
export function FeatureSection({ id, eyebrow, title, features, layout = 'grid-3' }: FeatureSectionProps) {
  return (
    <section className="section" aria-labelledby={id}>
      <div className="container">
        <div className="section-header">
          <span className="eyebrow">{eyebrow}</span>
          <h2 id={id}>{title}</h2>
        </div>
        <div className={`grid ${layout}`}>
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
