// The manuscripts area: uploading (with progress), the analysis, editing details and tags,
// the writer's list and home, and the phone page. The book a manuscript becomes belongs to
// the catalog: routes compose its fields, update_book and the publish switch with these.
import './manuscripts.css';

export { checkPassage, DEFAULT_PAGE_SIZE, getManuscript, getUploadProgress, listManuscripts, manuscriptKeys, uploadManuscript } from './api';
export { useCheckPassage, useManuscript, useManuscripts } from './hooks';
export { PROGRESS_POLL_MS, useUploadManuscript } from './use-upload';
export { ACCEPTED_EXTENSIONS, GENRES, UPLOAD_FAILED, uploadFailureMessage } from './upload';
export { AnalysisView } from './components/AnalysisView';
export { ManuscriptEditForm } from './components/ManuscriptEditForm';
export { ManuscriptList } from './components/ManuscriptList';
export { analysisPath, editPath, ManuscriptNav, pricePath, tagsPath, type ManuscriptScreen } from './components/ManuscriptNav';
export { PhoneManuscripts } from './components/PhoneManuscripts';
export { TagEditor } from './components/TagEditor';
export { UploadForm } from './components/UploadForm';
export { WriterHome } from './components/WriterHome';
export { BecomeWriter, isWriter, ManuscriptMissing, WriterGate } from './components/WriterGate';
export type * from './types';
