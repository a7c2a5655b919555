import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';
import { Tabs } from '../../../components/Tabs';
import { bankDetails } from '../../../components/bankDetails';

const requests: readonly { readonly label: string; readonly icon: IconName }[] = [
  { label: 'Block Debit/ATM Card', icon: 'block' },
  { label: 'Generate Debit Card Pin Number', icon: 'key' },
  { label: 'Unlock Debit/ATM Card', icon: 'unlock' },
  { label: 'Reissue Lost Debit/ATM Card', icon: 'refresh' },
];

const categories: readonly { readonly id: string; readonly label: string; readonly icon: IconName }[] = [
  { id: 'card', label: 'Card', icon: 'card' },
  { id: 'digital', label: 'Mobile/Internet Banking', icon: 'phone' },
  { id: 'details', label: 'Account Details Changing', icon: 'edit' },
  { id: 'cheque', label: 'Cheque Book/DD', icon: 'cheque' },
];

function RequestList({ category }: { category: string }) {
  return (
    <ul className="service-requests">
      {requests.map((request) => (
        <li key={request.label}>
          <Link to="/contact" className="service-request">
            <Icon name={request.icon} size={26} />
            <span>{request.label}</span>
            <span className="visually-hidden"> ({category})</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Emergency service requests by category; each request goes to the contact page. */
export function EmergencyServices() {
  return (
    <section className="section" id="emergency-services" aria-labelledby="emergency-title">
      <div className="container">
        <div className="section-header">
          <span className="eyebrow">Emergency service request</span>
          <h2 id="emergency-title">Lost your card? We are here around the clock.</h2>
          <p className="lead">
            Choose what you need and send us a request, or call <a href={bankDetails.phoneHref}>{bankDetails.phone}</a> at any time.
          </p>
        </div>
        <Tabs
          label="Service request category"
          tabs={categories.map((category) => ({
            id: category.id,
            label: (
              <>
                <Icon name={category.icon} size={20} /> {category.label}
              </>
            ),
            content: <RequestList category={category.label} />,
          }))}
        />
      </div>
    </section>
  );
}
