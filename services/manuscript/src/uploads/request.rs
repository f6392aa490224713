//! A `PublishEntry` request checked before anything is stored: who may upload, for whom,
//! how many files and how large, and the optional fields.

use bytes::Bytes;
use quire_kit::caller::Caller;
use quire_kit::error::CommonErrors;
use quire_proto::manuscript::v1 as pb;
use uuid::Uuid;

use crate::config::ManuscriptConfig;
use crate::error::{ManuscriptError, Result};
use crate::input;

/// How the files make the manuscript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// The files are one text, in order (`publish_entry`).
    Manuscript,
    /// Each file is one chapter, in order (`publish_entry_chapter`).
    FilePerChapter,
}

impl Split {
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Manuscript => crate::db::manuscript::SPLIT_MANUSCRIPT,
            Split::FilePerChapter => crate::db::manuscript::SPLIT_CHAPTERS,
        }
    }
}

/// One uploaded file: the name the writer gave it (without folders: never a path) and its
/// bytes.
#[derive(Debug, Clone)]
pub struct File {
    pub name: String,
    pub data: Bytes,
}

/// An upload that may go ahead.
#[derive(Debug, Clone)]
pub struct Upload {
    pub writer_id: Uuid,
    pub language: String,
    pub genre: Option<String>,
    pub split: Split,
    pub upload_id: Option<Uuid>,
    pub files: Vec<File>,
}

/// Checks `req` for `caller`: a writer (or an admin) uploading for themselves (an admin
/// for anyone), with 1 to `manuscript_max_files` files of `manuscript_max_bytes`
/// together, none empty.
pub fn check(
    caller: &Caller,
    req: pb::PublishEntryRequest,
    config: &ManuscriptConfig,
) -> Result<Upload> {
    input::writer_or_admin(caller)?;
    let writer_id = input::acting_for(caller, "uid", &req.uid)?;
    let language = input::language(&req.language)?;
    let genre = input::genre(&req.genre)?;
    let upload_id = input::opt_uuid("upload_id", &req.upload_id)?;
    let split = match pb::Split::try_from(req.split) {
        Ok(pb::Split::FilePerChapter) => Split::FilePerChapter,
        _ => Split::Manuscript,
    };
    if req.files.is_empty() {
        return Err(ManuscriptError::invalid(
            "files",
            "files: at least one file is required",
        ));
    }
    if req.files.len() > config.manuscript_max_files {
        return Err(ManuscriptError::invalid(
            "files",
            format!(
                "files: at most {} files per upload",
                config.manuscript_max_files
            ),
        ));
    }
    let total: u64 = req.files.iter().map(|f| f.data.len() as u64).sum();
    if total > config.manuscript_max_bytes {
        return Err(ManuscriptError::TooLarge(format!(
            "The files are larger than {} MiB together",
            config.manuscript_max_bytes / (1024 * 1024)
        )));
    }
    let mut files = Vec::with_capacity(req.files.len());
    for f in req.files {
        let name = input::clean(input::base_name(&f.file_name))
            .trim()
            .to_owned();
        if f.data.is_empty() {
            let shown = if name.is_empty() { "a file" } else { &name };
            return Err(ManuscriptError::invalid(
                "files",
                format!("files: {shown} is empty"),
            ));
        }
        files.push(File {
            name,
            data: Bytes::from(f.data),
        });
    }
    Ok(Upload {
        writer_id,
        language,
        genre,
        split,
        upload_id,
        files,
    })
}
