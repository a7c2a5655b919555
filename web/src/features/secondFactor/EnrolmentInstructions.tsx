import type { EnrolmentSecret } from '../../lib/api/types';
import './secondFactor.css';

/** The key in groups of four, easier to read and type. */
export function groupedKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/** How to add the bank to an authenticator app: the QR code, and the key as text for typing in. */
export function EnrolmentInstructions({ enrolment }: { readonly enrolment: EnrolmentSecret }) {
  return (
    <>
      <ol className="sf-steps">
        <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password …).</li>
        <li>Scan this QR code, or type the key below into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <img className="sf-qr" src={enrolment.qrCode} alt="QR code to add Summit Bank to your authenticator app" width={192} height={192} />
      <p id="sf-key-label">Key (if you cannot scan):</p>
      <p className="sf-key" aria-labelledby="sf-key-label" data-testid="totp-key">
        {groupedKey(enrolment.secret)}
      </p>
    </>
  );
}
