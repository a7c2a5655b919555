import { Link } from 'react-router';
import { bankDetails } from '../../../components/bankDetails';

/** The three-step loan process: Apply Here, Get Call Back, Process Your Request. */
export function LoanSteps({ product }: { product: string }) {
  return (
    <section className="section section-muted" aria-labelledby="loan-steps-title">
      <div className="container">
        <div className="section-header section-header-center">
          <span className="eyebrow">How it works</span>
          <h2 id="loan-steps-title">Three steps to your {product}</h2>
        </div>
        <ol className="steps">
          <li className="card step">
            <span className="step-number" aria-hidden="true">
              1
            </span>
            <h3>Apply Here</h3>
            <p>
              Tell us what you need with our <Link to="/contact">application form</Link>. It takes about five minutes.
            </p>
          </li>
          <li className="card step">
            <span className="step-number" aria-hidden="true">
              2
            </span>
            <h3>Get Call Back</h3>
            <p>A loan officer calls you within one working day ({bankDetails.bankingHours}) to talk through your options.</p>
          </li>
          <li className="card step">
            <span className="step-number" aria-hidden="true">
              3
            </span>
            <h3>Process Your Request</h3>
            <p>We check your documents, confirm your offer in writing and release the funds once you accept.</p>
          </li>
        </ol>
      </div>
    </section>
  );
}
