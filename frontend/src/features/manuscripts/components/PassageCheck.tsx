import { useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader } from '@/components/Card';
import { TextField } from '@/components/TextField';
import { rules, validateField } from '@/lib/validation';
import { useCheckPassage } from '../hooks';
import { AiCheckPanel } from './AiCheckPanel';

/** What the AI check reads at most (the gateway's limit). */
export const PASSAGE_MAX = 200_000;
const PASSAGE_RULES = [rules.required(), rules.maxLength(PASSAGE_MAX)];

/** Checks one passage (a rewritten chapter, a blurb) with the same AI check. */
export function PassageCheck() {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const check = useCheckPassage();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const why = validateField(text, PASSAGE_RULES);
    setError(why ?? undefined);
    if (!why) check.mutate(text.trim());
  };

  return (
    <Card data-testid="passage-check">
      <CardHeader title="Check a passage" subtitle="Paste a passage to run the AI check on it alone." />
      <form className="form" onSubmit={submit} aria-label="Check a passage" noValidate>
        <TextField
          label="Passage"
          multiline
          rows={5}
          name="passage"
          value={text}
          error={error}
          hint={`Up to ${PASSAGE_MAX.toLocaleString('en-US')} characters.`}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
          }}
        />
        <div className="form-actions">
          <Button type="submit" variant="secondary" loading={check.isPending}>
            Check passage
          </Button>
        </div>
      </form>
      {check.data && !check.isPending ? <AiCheckPanel check={check.data} testId="passage-result" /> : null}
    </Card>
  );
}
