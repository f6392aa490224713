// The upload screen's form: files (dropped or chosen, ordered), an optional genre, the
// one-file-per-chapter switch, then progress while it goes and the analysis when it is
// done. A failure is said in place and leaves everything the writer chose as it was.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { toast } from '@/stores/toast';
import type { ManuscriptDetail } from '../types';
import { GENRES, uploadFailureMessage, validateUpload, type PickedFile } from '../upload';
import { useUploadManuscript } from '../use-upload';
import { FileDrop } from './FileDrop';
import { UploadProgressPanel } from './UploadProgressPanel';

export interface UploadFormProps {
  /** The writer's user_id (publish_entry's uid). */
  uid: string;
  onUploaded: (detail: ManuscriptDetail) => void;
  /** The phone layout. */
  compact?: boolean;
}

export function UploadForm({ uid, onUploaded, compact }: UploadFormProps) {
  const id = useId();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [genre, setGenre] = useState('');
  const [perChapter, setPerChapter] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { upload, mutation, sent, step, cancel } = useUploadManuscript();
  const busy = mutation.isPending;

  const edited = () => {
    setProblem(null);
    if (mutation.isError) mutation.reset();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const why = validateUpload(files, genre);
    setProblem(why);
    if (why) return;
    upload(
      { files: files.map((p) => p.file), genre, perChapter, uid },
      {
        onSuccess: (detail) => {
          toast.success('Your manuscript is analysed');
          onUploaded(detail);
        },
      },
    );
  };

  return (
    <form className={`form ms-upload ${compact ? 'ms-upload-compact' : ''}`} aria-label="Upload a manuscript" onSubmit={submit} noValidate>
      <fieldset className="ms-fieldset" disabled={busy}>
        <legend className="ms-legend">Manuscript</legend>
        <FileDrop
          files={files}
          disabled={busy}
          compact={compact}
          onChange={(next) => {
            setFiles(next);
            edited();
          }}
        />
        <div className="ms-upload-options">
          <div className="field">
            <label htmlFor={`${id}-genre`} className="field-label">
              Genre
            </label>
            <select
              id={`${id}-genre`}
              className="ms-select"
              value={genre}
              onChange={(e) => {
                setGenre(e.target.value);
                edited();
              }}
            >
              <option value="">Let the analysis decide</option>
              {GENRES.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
            <p className="field-hint">Optional: the analysis suggests one with its probabilities.</p>
          </div>
          <label className="ms-check">
            <input
              type="checkbox"
              checked={perChapter}
              onChange={(e) => {
                setPerChapter(e.target.checked);
                edited();
              }}
            />
            <span>
              <span className="ms-check-title">One file per chapter</span>
              <span className="muted small">Each file becomes one chapter, in the order of the list.</span>
            </span>
          </label>
        </div>
      </fieldset>

      {problem ? (
        <p className="field-error" role="alert" data-testid="upload-problem">
          {problem}
        </p>
      ) : null}
      {busy ? <UploadProgressPanel sent={sent} step={step} onCancel={cancel} /> : null}
      {mutation.isError ? (
        <div className="notice notice-error" role="alert" data-testid="upload-error">
          <p>{uploadFailureMessage(mutation.error)}</p>
        </div>
      ) : null}

      <div className="form-actions">
        <Button type="submit" size={compact ? 'md' : 'lg'} block={compact} loading={busy} data-testid="upload-submit">
          {busy ? 'Uploading…' : files.length > 1 ? `Upload ${files.length} files and analyse` : 'Upload and analyse'}
        </Button>
      </div>
    </form>
  );
}
