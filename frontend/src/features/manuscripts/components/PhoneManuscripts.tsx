import { useState, type ReactNode } from 'react';
import { Button } from '@/components/Button';
import type { ManuscriptDetail, ManuscriptSummary } from '../types';
import { ManuscriptList } from './ManuscriptList';
import { UploadForm } from './UploadForm';

export interface PhoneManuscriptsProps {
  uid: string;
  onUploaded: (detail: ManuscriptDetail) => void;
  publish?: (m: ManuscriptSummary) => ReactNode;
  /** Whether a manuscript's book is in the shop now (see ManuscriptList). */
  publishedOf?: (m: ManuscriptSummary) => boolean | undefined;
}

/** h5/manuscript: the manuscripts as cards and the upload folded in, for one thumb. */
export function PhoneManuscripts({ uid, onUploaded, publish, publishedOf }: PhoneManuscriptsProps) {
  const [uploading, setUploading] = useState(false);
  return (
    <div className="page h5-page ms-phone">
      <header className="ms-phone-head">
        <div>
          <p className="eyebrow">Writer</p>
          <h1>Manuscripts</h1>
        </div>
        <Button size="sm" variant={uploading ? 'secondary' : 'primary'} onClick={() => setUploading(!uploading)} aria-expanded={uploading} data-testid="phone-upload-toggle">
          {uploading ? 'Close' : 'Upload'}
        </Button>
      </header>
      {uploading ? (
        <section className="card ms-phone-upload" aria-label="New manuscript">
          <UploadForm uid={uid} onUploaded={onUploaded} compact />
        </section>
      ) : null}
      <ManuscriptList publish={publish} publishedOf={publishedOf} compact />
    </div>
  );
}
