import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { SelectField, TextField } from '../../../components/Field';
import { PageTitle } from '../../../components/PageTitle';
import { errorMessage } from '../../../lib/api/apiError';
import { useSession } from '../../../lib/session/SessionContext';
import { submitVerification } from '../authApi';
import { AuthCard } from '../components/AuthCard';
import { ImageUploadField, type ChosenImage } from '../components/ImageUploadField';
import { fileProblem, readFileAsDataUrl } from '../verificationFiles';

export const ALL_FIELDS_REQUIRED = 'All fields are required';

type ImageSlot = 'passport' | 'documentFront' | 'documentBack';

const documentTypeOptions = [
  { value: 'passport', label: 'Passport' },
  { value: 'national-id', label: 'National ID card' },
  { value: 'driver-license', label: "Driver's license" },
  { value: 'other', label: 'Other' },
] as const;

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** Complete Your Account Setup: identity documents and date of birth, sent to POST /api/user/verification. */
export function AccountVerificationPage() {
  const { isAuthenticated, refreshUser } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [images, setImages] = useState<Record<ImageSlot, ChosenImage | null>>({ passport: null, documentFront: null, documentBack: null });
  const [fileErrors, setFileErrors] = useState<Partial<Record<ImageSlot, string>>>({});
  const [documentType, setDocumentType] = useState<string>('passport');
  const [otherType, setOtherType] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (!isAuthenticated) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;

  const onFile = (slot: ImageSlot) => async (event: ChangeEvent<HTMLInputElement>) => {
    setFailure(null);
    const input = event.target;
    const file = input.files?.[0];
    const problem = fileProblem(file);
    if (problem || !file) {
      setFileErrors((current) => ({ ...current, [slot]: problem ?? undefined }));
      setImages((current) => ({ ...current, [slot]: null }));
      input.value = '';
      return;
    }
    try {
      const dataUrl = await readFileAsDataUrl(file);
      setImages((current) => ({ ...current, [slot]: { name: file.name, dataUrl } }));
      setFileErrors((current) => ({ ...current, [slot]: undefined }));
    } catch {
      setFileErrors((current) => ({ ...current, [slot]: 'The file could not be read. Please choose it again.' }));
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const { passport, documentFront, documentBack } = images;
    if (!passport || !documentFront || !dateOfBirth) {
      setFailure(ALL_FIELDS_REQUIRED);
      return;
    }
    setSubmitting(true);
    try {
      await submitVerification({
        passport: passport.dataUrl,
        documentFront: documentFront.dataUrl,
        documentBack: (documentBack ?? documentFront).dataUrl,
        documentType,
        dateOfBirth,
      });
    } catch (error) {
      setFailure(errorMessage(error, 'Your documents could not be sent. Please try again.'));
      setSubmitting(false);
      return;
    }
    try {
      await refreshUser();
    } catch (error) {
      console.warn('Could not reload the user after verification; the home page will.', error);
    }
    void navigate('/account/home', { replace: true });
  };

  return (
    <>
      <PageTitle>Complete Your Account Setup</PageTitle>
      <AuthCard
        wide
        title="Complete Your Account Setup"
        intro={<p>We are required to confirm who you are before you can move money. Upload a passport photo and a photo ID; it takes about two minutes.</p>}
      >
        <form onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
          <ImageUploadField label="Passport photo" name="passport" image={images.passport} error={fileErrors.passport} onChange={onFile('passport')} />
          <SelectField label="Document type" name="documentType" value={documentType} onChange={(event) => setDocumentType(event.target.value)}>
            {documentTypeOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
          {documentType === 'other' ? (
            <TextField label="Which document?" name="otherDocumentType" hint="For example: residence permit" value={otherType} onChange={(event) => setOtherType(event.target.value)} />
          ) : null}
          <div className="form-grid">
            <ImageUploadField label="Document front" name="documentFront" image={images.documentFront} error={fileErrors.documentFront} onChange={onFile('documentFront')} />
            <ImageUploadField
              label="Document back"
              name="documentBack"
              image={images.documentBack}
              error={fileErrors.documentBack}
              hint="Optional; we use the front if you leave it empty"
              onChange={onFile('documentBack')}
            />
          </div>
          <TextField
            label="Date of birth"
            type="date"
            name="dateOfBirth"
            autoComplete="bday"
            max={today()}
            value={dateOfBirth}
            onChange={(event) => {
              setFailure(null);
              setDateOfBirth(event.target.value);
            }}
          />
          {failure ? <Alert kind="error">{failure}</Alert> : null}
          <Button type="submit" loading={submitting} className="btn-block btn-large">
            Submit for Verification
          </Button>
        </form>
      </AuthCard>
    </>
  );
}
