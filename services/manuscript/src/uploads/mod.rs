//! Uploads: a writer's manuscript from the files sent to the unlisted book in catalog. The
//! request is read and its files kept (`request`, `originals`); the text is extracted
//! (`extraction`, in a process of its own under OS limits: `worker`; `catalog_file`), analysed offline (`analysis`, `report`, and alone the
//! advisory `ai_checker`) and fingerprinted (`fingerprint`) so that a text uploaded before
//! is refused (`duplicates`); the manuscript is recorded with its event (`records`) and
//! the book made (`publish`), step by step where the writer can follow it (`progress`);
//! abandoned uploads are swept (`sweeper`). A writer lists the manuscripts (`listing`),
//! with whether each book is in the shop (`book_events`).

pub mod ai_checker;
pub mod analysis;
pub mod book_events;
pub mod catalog_file;
pub mod duplicates;
pub mod extraction;
pub mod fingerprint;
pub mod listing;
pub mod originals;
pub mod progress;
pub mod publish;
pub mod records;
pub mod report;
pub mod request;
pub mod sweeper;
pub mod worker;
