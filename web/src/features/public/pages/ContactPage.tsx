import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { bankDetails } from '../../../components/bankDetails';
import { ContactForm } from '../components/ContactForm';
import { CustomerCareTable } from '../components/CustomerCareTable';
import { PageBanner } from '../components/PageBanner';

export function ContactPage() {
  return (
    <>
      <PageTitle>Contact Us</PageTitle>
      <PageBanner eyebrow="Contact Us" title="We are here to help">
        <p>Questions about an account, a card or a loan? Send us a message, call us or visit our head office.</p>
      </PageBanner>

      <section className="section" aria-label="Contact form and details">
        <div className="container contact-layout">
          <div className="card contact-card">
            <ContactForm />
          </div>
          <aside className="contact-details" aria-labelledby="contact-details-title">
            <h2 id="contact-details-title">Contact details</h2>
            <ul className="contact-list">
              <li>
                <span className="icon-badge">
                  <Icon name="pin" />
                </span>
                <div>
                  <h3>Office address</h3>
                  <address>
                    {bankDetails.address.map((line) => (
                      <span key={line} className="address-line">
                        {line}
                      </span>
                    ))}
                  </address>
                </div>
              </li>
              <li>
                <span className="icon-badge">
                  <Icon name="clock" />
                </span>
                <div>
                  <h3>Office hours</h3>
                  <p>{bankDetails.bankingHours}</p>
                </div>
              </li>
              <li>
                <span className="icon-badge">
                  <Icon name="call" />
                </span>
                <div>
                  <h3>Phone</h3>
                  <p>
                    <a href={bankDetails.phoneHref}>{bankDetails.phone}</a>
                  </p>
                </div>
              </li>
              <li>
                <span className="icon-badge">
                  <Icon name="mail" />
                </span>
                <div>
                  <h3>E-mail</h3>
                  <p>
                    <a href={`mailto:${bankDetails.email}`}>{bankDetails.email}</a>
                  </p>
                </div>
              </li>
            </ul>
          </aside>
        </div>
      </section>

      <section className="section section-muted" aria-label="Customer care numbers">
        <div className="container">
          <CustomerCareTable />
        </div>
      </section>
    </>
  );
}
