import { useId, useState, type DragEvent } from 'react';
import { Icon } from '@/components/Icon';
import { formatBytes } from '../format';
import { ACCEPT_ATTRIBUTE, addFiles, extensionOf, moveFile, removeFile, type PickedFile } from '../upload';

export interface FileDropProps {
  files: PickedFile[];
  onChange: (files: PickedFile[]) => void;
  disabled?: boolean;
  /** Phones: no dragging, a shorter text. */
  compact?: boolean;
}

/**
 * Where the writer puts the files: dropped or chosen, listed in the order they will be
 * read (the book's order), each one movable and removable. Files that are no manuscript
 * are named and left out.
 */
export function FileDrop({ files, onChange, disabled, compact }: FileDropProps) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const [rejected, setRejected] = useState<string[]>([]);

  const add = (incoming: FileList | null) => {
    if (!incoming || disabled) return;
    const next = addFiles(files, Array.from(incoming));
    setRejected(next.rejected);
    onChange(next.list);
  };
  const onDragOver = (e: DragEvent) => {
    e.preventDefault();
    if (!disabled) setOver(true);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer?.files ?? null);
  };

  return (
    <div className="ms-drop-wrap">
      <div
        className={`ms-drop ${over ? 'ms-drop-over' : ''} ${compact ? 'ms-drop-compact' : ''}`}
        onDragOver={onDragOver}
        onDragLeave={(e) => {
          // Moving over the zone's own text is no leaving.
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
        }}
        onDrop={onDrop}
        data-testid="upload-drop"
      >
        <span className="ms-drop-icon" aria-hidden>
          <Icon name="upload" size={compact ? 22 : 28} />
        </span>
        <p className="ms-drop-title">{compact ? 'Add your manuscript files' : 'Drop your manuscript files here'}</p>
        <p className="muted small">epub, pdf, txt, docx or md. Several files are read in the order of the list.</p>
        <input
          id={inputId}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="ms-file-input"
          aria-label="Manuscript files"
          disabled={disabled}
          onChange={(e) => {
            add(e.target.files);
            e.target.value = '';
          }}
        />
        <label htmlFor={inputId} className="btn btn-secondary btn-sm">
          Choose files
        </label>
      </div>
      {rejected.length > 0 ? (
        <div className="notice notice-warning small" role="alert" data-testid="upload-rejected">
          <p>{rejected.join('; ')}. Use epub, pdf, txt, docx or md files.</p>
        </div>
      ) : null}
      {files.length > 0 ? (
        <ol className="ms-files" aria-label="Files to upload">
          {files.map((p, i) => (
            <li key={p.id} className="ms-file" data-testid="upload-file">
              <span className="ms-file-n" aria-hidden>
                {i + 1}
              </span>
              <span className="ms-file-kind">{extensionOf(p.file.name).slice(1)}</span>
              <span className="ms-file-name" title={p.file.name}>
                {p.file.name}
              </span>
              <span className="muted small ms-file-size">{formatBytes(p.file.size)}</span>
              <span className="ms-file-actions">
                <button
                  type="button"
                  className="icon-button ms-icon-sm"
                  aria-label={`Move ${p.file.name} up`}
                  disabled={disabled || i === 0}
                  onClick={() => onChange(moveFile(files, p.id, -1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="icon-button ms-icon-sm"
                  aria-label={`Move ${p.file.name} down`}
                  disabled={disabled || i === files.length - 1}
                  onClick={() => onChange(moveFile(files, p.id, 1))}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="icon-button ms-icon-sm"
                  aria-label={`Remove ${p.file.name}`}
                  disabled={disabled}
                  onClick={() => onChange(removeFile(files, p.id))}
                >
                  <Icon name="close" size={14} />
                </button>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
