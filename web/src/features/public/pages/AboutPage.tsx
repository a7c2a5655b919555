import { ButtonLink } from '../../../components/ButtonLink';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { bankDetails } from '../../../components/bankDetails';
import { PageBanner } from '../components/PageBanner';
import { BuildingArt } from '../components/illustrations/BuildingArt';

export const ANNUAL_REPORT_URL = '/reports/summit-bank-annual-report-2024.html';

const facts = [
  { value: '86', label: 'branches' },
  { value: '320', label: 'ATMs nationwide' },
  { value: '1.2M', label: 'customers' },
  { value: '1954', label: 'serving communities since' },
];

const awards = [
  { year: '2024', title: 'Best Digital Bank for Customer Service', from: 'National Banking Review' },
  { year: '2023', title: 'Regional Bank of the Year', from: 'Financial Services Awards' },
  { year: '2023', title: 'Top Employer in Financial Services', from: 'Workplace Excellence Council' },
  { year: '2022', title: 'Most Trusted Home Lender', from: 'Homebuyers’ Choice Awards' },
];

export function AboutPage() {
  return (
    <>
      <PageTitle>About Us</PageTitle>
      <PageBanner eyebrow="About Us" title={`About ${bankDetails.name}`} art={<BuildingArt />}>
        <p>For seventy years we have helped families and businesses save, borrow and grow — with people you can talk to and tools you can trust.</p>
      </PageBanner>

      <section className="section" aria-labelledby="purpose-title">
        <div className="container">
          <h2 id="purpose-title" className="visually-hidden">
            Our purpose
          </h2>
          <div className="grid grid-2">
            <article className="card">
              <span className="icon-badge">
                <Icon name="trophy" size={26} />
              </span>
              <h3>Our Mission</h3>
              <p>To make good banking simple and fair for everyone: clear prices, honest advice and money that is safe and always within reach.</p>
            </article>
            <article className="card">
              <span className="icon-badge">
                <Icon name="globe" size={26} />
              </span>
              <h3>Our Vision</h3>
              <p>To be the bank people recommend to the ones they love, in every community we serve, in branch and online.</p>
            </article>
          </div>
        </div>
      </section>

      <section className="section section-muted" aria-labelledby="facts-title">
        <div className="container">
          <div className="section-header section-header-center">
            <span className="eyebrow">At a glance</span>
            <h2 id="facts-title">Facts and figures</h2>
          </div>
          <dl className="facts">
            {facts.map((fact) => (
              <div key={fact.label} className="fact">
                <dt>{fact.label}</dt>
                <dd>{fact.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section className="section" aria-labelledby="awards-title">
        <div className="container">
          <div className="section-header">
            <span className="eyebrow">Recognition</span>
            <h2 id="awards-title">Awards</h2>
          </div>
          <ul className="awards">
            {awards.map((award) => (
              <li key={award.title} className="card award">
                <Icon name="trophy" size={28} />
                <div>
                  <p className="award-title">{award.title}</p>
                  <p className="award-meta">
                    {award.from}, {award.year}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-muted" aria-labelledby="report-title">
        <div className="container split">
          <div>
            <span className="eyebrow">Investors</span>
            <h2 id="report-title">Annual Report 2024</h2>
            <p className="lead">Our results, our strategy and how we look after our customers’ money, in one short report.</p>
          </div>
          <div>
            <a className="btn btn-primary btn-large" href={ANNUAL_REPORT_URL} download>
              <Icon name="download" size={20} /> Download the annual report
            </a>
            <p className="muted-note">HTML document, 3 KB</p>
          </div>
        </div>
      </section>

      <section className="section" aria-label="Join us">
        <div className="container">
          <div className="cta-band">
            <div>
              <h2 className="cta-band-title">Build your career with us</h2>
              <p className="cta-band-text">We are hiring across branches, technology and risk.</p>
            </div>
            <div className="cta-band-actions">
              <ButtonLink to="/careers" variant="accent" size="large">
                See open roles
              </ButtonLink>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
