import { Icon } from '../../../components/Icon';
import { bankDetails } from '../../../components/bankDetails';
import { PhoneArt } from './illustrations/PhoneArt';

/** The mobile app banner. There is no store listing yet, so it names the app rather than linking to nowhere. */
export function AppDownloadBanner() {
  return (
    <section className="section" aria-labelledby="app-title">
      <div className="container">
        <div className="app-banner">
          <div className="app-banner-copy">
            <span className="eyebrow app-banner-eyebrow">Mobile banking</span>
            <h2 id="app-title">Your bank in your pocket</h2>
            <ul className="check-list">
              <li>
                <Icon name="check" size={20} /> Balances and transactions at a glance
              </li>
              <li>
                <Icon name="check" size={20} /> Transfers secured by your 6 digit payment pin
              </li>
              <li>
                <Icon name="check" size={20} /> Block or unlock your card in one tap
              </li>
            </ul>
            <p className="app-banner-stores">
              Download the <strong>{bankDetails.name}</strong> app from the App Store or Google Play.
            </p>
          </div>
          <div className="app-banner-art">
            <PhoneArt />
          </div>
        </div>
      </div>
    </section>
  );
}
