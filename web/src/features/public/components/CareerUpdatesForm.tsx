import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { loadFormSchemas } from '../loadFormSchemas';

/**
 * Subscribe for career updates. Nothing is sent anywhere (the product has no mailing list); the form checks the
 * address and thanks the person.
 */
export function CareerUpdatesForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { requiredEmail } = await loadFormSchemas();
    const result = requiredEmail().safeParse(email);
    if (!result.success) return setError(result.error.issues[0]?.message ?? 'Please enter a valid email address');
    setError(undefined);
    setEmail('');
    setDone(true);
  };

  return (
    // The schema loads when the form is first used (formSchemas.ts).
    <form className="subscribe-form" onSubmit={onSubmit} onFocus={() => void loadFormSchemas()} noValidate aria-labelledby="career-updates-title">
      <h2 id="career-updates-title">Get career updates</h2>
      <p>Leave your e-mail address and hear about new openings first.</p>
      <div className="subscribe-row">
        <TextField
          label="Email address"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          error={error}
          onChange={(event) => {
            setEmail(event.target.value);
            setDone(false);
          }}
        />
        <Button type="submit">Subscribe</Button>
      </div>
      {done ? <Alert kind="success">Thanks — we&rsquo;ll be in touch.</Alert> : null}
    </form>
  );
}
