import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { bankDetails } from '../../../components/bankDetails';
import { ApiError, errorMessage } from '../../../lib/api/apiError';
import { emailApi } from '../../../lib/api/emailApi';
import { AuthCard } from '../components/AuthCard';

/** What the form checks before sending: an address that looks like one (the server answers the same for any). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The message for a client that asked too often (429), with the wait the server gave. */
function tooManyRequests(error: ApiError): string {
  const wait = error.retryAfterSeconds;
  return wait ? `Too many requests. Please try again in ${wait} ${wait === 1 ? 'second' : 'seconds'}.` : 'Too many requests. Please try again in a minute.';
}

/**
 * /forgot-password: the customer's e-mail address; the bank sends a link to reset the password. The answer is the
 * same whether or not the address has an account (the server's message), so the page reveals nothing either.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const answerHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sent) answerHeading.current?.focus();
  }, [sent]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const address = email.trim();
    const invalid = !address ? 'Email is required' : EMAIL_SHAPE.test(address) ? undefined : 'Enter a valid e-mail address';
    setFieldError(invalid);
    if (invalid) return;
    setSending(true);
    try {
      const answer = await emailApi.forgotPassword(address);
      setSent({ email: address, message: answer.message });
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 429 ? tooManyRequests(failure) : errorMessage(failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <PageTitle>Reset your password</PageTitle>
      <AuthCard
        title="Reset your password"
        intro={sent ? null : <p>Enter the e-mail address you signed up with and we will send you a link to choose a new password.</p>}
        footer={
          <p>
            Remembered it? <Link to="/signin">Back to login</Link>
          </p>
        }
      >
        {sent ? (
          <section className="auth-answer" aria-labelledby="forgot-answer">
            <Icon name="mail" size={40} />
            <h2 id="forgot-answer" ref={answerHeading} tabIndex={-1}>
              Check your e-mail
            </h2>
            <Alert kind="success">{sent.message}</Alert>
            <p>
              We sent it to <strong>{sent.email}</strong>. The link works once, for 30 minutes. If nothing arrives in a few minutes, look in
              your spam folder or send it again.
            </p>
            <Button variant="secondary" className="btn-block" onClick={() => setSent(null)}>
              Send again
            </Button>
          </section>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="auth-title">
            <div aria-live="assertive">{error ? <Alert kind="error">{error}</Alert> : null}</div>
            <TextField
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              required
              autoFocus
              value={email}
              error={fieldError}
              onChange={(event) => setEmail(event.target.value)}
            />
            <Button type="submit" loading={sending} className="btn-block btn-large">
              Send reset link
            </Button>
          </form>
        )}
        <div className="auth-help">
          <p className="auth-help-title">No longer using that e-mail address?</p>
          <p>
            Call us on <a href={bankDetails.phoneHref}>{bankDetails.phone}</a> ({bankDetails.bankingHours}) or{' '}
            <Link to="/contact">send us a message</Link>: customer care resets it once they have confirmed who you are.
          </p>
        </div>
      </AuthCard>
    </>
  );
}
