import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextAreaField, TextField } from '../../../components/Field';
import { useTimedMessage } from '../../../components/useTimedMessage';
import { errorMessage } from '../../../lib/api/apiError';
import { sendContactMessage, type ContactMessageInput } from '../contactApi';
import { fieldErrors } from '../../../components/fieldErrors';
import { loadFormSchemas } from '../loadFormSchemas';

/** How long the success message stays (spec, section 9). */
export const CONTACT_SUCCESS_MS = 3000;
export const CONTACT_SUCCESS_MESSAGE = 'Thank you! Your message has been sent. We will get back to you soon.';

type Errors = Partial<Record<'name' | 'email' | 'message', string>>;

const empty: ContactMessageInput = { name: '', email: '', phone: '', subject: '', message: '', website: '' };

/** The domain's contact schema (the one the server applies): name, e-mail and message required. */
async function validate(values: ContactMessageInput): Promise<Errors> {
  const { contactInput } = await loadFormSchemas();
  const result = contactInput.safeParse(values);
  return result.success ? {} : fieldErrors<keyof Errors>(result.error.issues);
}

/**
 * Get In Touch: name, e-mail, optional phone and subject, message, and a hidden bot-check field `website`.
 * Success clears the fields and shows a message for 3000 ms; a failure shows the server's error.
 */
export function ContactForm() {
  const [values, setValues] = useState<ContactMessageInput>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, showSuccess] = useTimedMessage(CONTACT_SUCCESS_MS);

  const field = (name: keyof ContactMessageInput) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = await validate(values);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    try {
      await sendContactMessage(values);
      setValues(empty);
      showSuccess(CONTACT_SUCCESS_MESSAGE);
    } catch (error) {
      showSuccess(null);
      setFailure(errorMessage(error, 'Your message could not be sent. Please try again.'));
    } finally {
      setSending(false);
    }
  };

  return (
    // The schema loads when the form is first used (formSchemas.ts), so it is there by the time it is sent.
    <form className="contact-form" onSubmit={onSubmit} onFocus={() => void loadFormSchemas()} noValidate aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Get In Touch</h2>
      <p className="muted-note">Fields marked * are required.</p>
      <div className="form-grid">
        <TextField label="Name *" autoComplete="name" required error={errors.name} {...field('name')} />
        <TextField label="Email *" type="email" autoComplete="email" required error={errors.email} {...field('email')} />
        <TextField label="Phone (optional)" type="tel" autoComplete="tel" {...field('phone')} />
        <TextField label="Subject (optional)" {...field('subject')} />
      </div>
      <TextAreaField label="Message *" rows={5} required error={errors.message} {...field('message')} />
      <div className="bot-check" aria-hidden="true">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...field('website')} />
      </div>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      {success ? <Alert kind="success">{success}</Alert> : null}
      <Button type="submit" loading={sending}>
        Send Message
      </Button>
    </form>
  );
}
