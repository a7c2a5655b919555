import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { TextAreaField } from '../../components/Field';
import { errorMessage } from '../../lib/api/apiError';
import { useUploadAchFile } from './achApi';
import type { AchUploadKind } from './achTypes';
import { readFileText } from './readFileText';
import { IncomingResult, ReturnsResult } from './UploadResult';

const words = {
  returns: {
    title: 'Returns file',
    lead: 'Entries of ours that the receiving banks sent back (addenda 99, R01–R85): each refunds its customer once.',
    button: 'Upload returns file',
  },
  incoming: {
    title: 'Incoming file',
    lead: "Credits from other banks to our customers' checking (22) or savings (32); an unknown or closed account is returned.",
    button: 'Upload incoming file',
  },
} as const;

/**
 * One NACHA file to apply (admins): chosen from disk or pasted, sent as it is (`text/plain`). The file is applied
 * whole or not at all: a 400 names the first bad line, and nothing moved.
 */
export function AchUploadForm({ kind }: { kind: AchUploadKind }) {
  const upload = useUploadAchFile(kind);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const pickerId = useId();
  const headingId = useId();
  const copy = words[kind];

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    upload.reset();
    setProblem(null);
    try {
      setText(await readFileText(file));
      setChosen(file.name);
    } catch {
      setProblem(`${file.name} could not be read`);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.reset();
    if (text.trim() === '') {
      setProblem('Choose a file or paste its text');
      return;
    }
    setProblem(null);
    upload.mutate(text);
  };

  return (
    <form className="ach-upload" onSubmit={submit} noValidate aria-labelledby={headingId}>
      <h2 id={headingId}>{copy.title}</h2>
      <p className="audit-muted">{copy.lead}</p>
      <div className="field">
        <label htmlFor={pickerId}>Choose a file</label>
        <input id={pickerId} type="file" accept=".ach,.txt,.nacha,text/plain" onChange={(event) => void choose(event)} />
      </div>
      <TextAreaField
        label="Or paste the file's text"
        className="ach-mono ach-text"
        rows={6}
        spellCheck={false}
        autoComplete="off"
        wrap="off"
        value={text}
        hint={chosen ? `From ${chosen}` : 'The 94-character records, as the file holds them.'}
        error={problem ?? undefined}
        onChange={(event) => {
          setText(event.target.value);
          setChosen(null);
        }}
      />
      <Button type="submit" loading={upload.isPending}>
        {copy.button}
      </Button>
      {upload.isError ? (
        <Alert kind="error">
          {errorMessage(upload.error)}
          <br />
          Nothing in this file was applied.
        </Alert>
      ) : null}
      {upload.isSuccess && kind === 'returns' && 'applied' in upload.data ? <ReturnsResult result={upload.data} /> : null}
      {upload.isSuccess && kind === 'incoming' && 'credited' in upload.data ? <IncomingResult result={upload.data} /> : null}
    </form>
  );
}
