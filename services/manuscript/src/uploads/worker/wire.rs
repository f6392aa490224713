//! What the service and its extraction worker say to each other: the worker is the
//! service binary run with [`SUBCOMMAND`], spoken to over its stdin and stdout in
//! postcard. The request is a header (the split, the text budget, each file's name and
//! length) followed by the files' bytes as they are, so that neither side copies an
//! upload into a message. The reply is the extraction's result: what was read, or the
//! error and its message. The service reads a reply as it would a stranger's: any
//! malformed one is refused (`None`), never trusted.

use bytes::Bytes;
use quire_analysis::ChapterText;
use quire_bookfile::ManuscriptFormat;
use quire_kit::KitError;
use quire_kit::error::CommonErrors;
use serde::{Deserialize, Serialize};

use crate::error::{ManuscriptError, Result};
use crate::uploads::extraction::Extracted;
use crate::uploads::request::{File, Split};

/// The service binary's subcommand that runs as a worker.
pub const SUBCOMMAND: &str = "extract";

/// The fields an extraction error may name (`KitError::Invalid` takes a static name).
const FIELDS: [&str; 1] = ["files"];

#[derive(Serialize, Deserialize)]
struct Head {
    split: WireSplit,
    max_text_chars: u64,
    files: Vec<FileHead>,
}

#[derive(Serialize, Deserialize)]
struct FileHead {
    name: String,
    len: u64,
}

#[derive(Serialize, Deserialize)]
enum WireSplit {
    Manuscript,
    FilePerChapter,
}

/// One extraction to do, as the worker reads it.
pub struct Request {
    pub files: Vec<File>,
    pub split: Split,
    pub max_text_chars: usize,
}

/// The header of a request for `files`; their bytes follow it on the wire.
pub fn request_head(files: &[File], split: Split, max_text_chars: usize) -> Result<Vec<u8>> {
    let head = Head {
        split: match split {
            Split::Manuscript => WireSplit::Manuscript,
            Split::FilePerChapter => WireSplit::FilePerChapter,
        },
        max_text_chars: max_text_chars as u64,
        files: files
            .iter()
            .map(|f| FileHead {
                name: f.name.clone(),
                len: f.data.len() as u64,
            })
            .collect(),
    };
    postcard::to_stdvec(&head)
        .map_err(|e| ManuscriptError::internal(format!("extraction request not written: {e}")))
}

impl Request {
    /// Reads a whole request (header and files); the files are slices of `input`.
    pub fn decode(input: Bytes) -> std::result::Result<Self, String> {
        let (head, rest) = postcard::take_from_bytes::<Head>(&input)
            .map_err(|e| format!("malformed request header: {e}"))?;
        let mut at = input.len() - rest.len();
        let mut files = Vec::with_capacity(head.files.len());
        for file in head.files {
            let end = usize::try_from(file.len)
                .ok()
                .and_then(|len| at.checked_add(len))
                .filter(|end| *end <= input.len())
                .ok_or("a file is longer than the request")?;
            files.push(File {
                name: file.name,
                data: input.slice(at..end),
            });
            at = end;
        }
        if at != input.len() {
            return Err("bytes after the last file".into());
        }
        Ok(Self {
            files,
            split: match head.split {
                WireSplit::Manuscript => Split::Manuscript,
                WireSplit::FilePerChapter => Split::FilePerChapter,
            },
            max_text_chars: usize::try_from(head.max_text_chars).unwrap_or(usize::MAX),
        })
    }
}

#[derive(Serialize, Deserialize)]
enum Reply {
    Read(WireExtracted),
    Failed(WireError),
}

#[derive(Serialize, Deserialize)]
struct WireExtracted {
    title: String,
    authors: Vec<String>,
    chapters: Vec<(String, String)>,
    formats: Vec<WireFormat>,
}

#[derive(Serialize, Deserialize)]
enum WireFormat {
    Epub,
    Pdf,
    Txt,
    Docx,
    Markdown,
}

#[derive(Serialize, Deserialize)]
enum WireError {
    TooLarge(String),
    Unreadable(String),
    Invalid {
        field: String,
        message: String,
    },
    /// Anything else extraction failed with: the service's fault, not the file's.
    Internal(String),
}

/// Writes the extraction's result as the worker's reply.
pub fn write_reply(
    result: Result<Extracted>,
    out: impl std::io::Write,
) -> std::result::Result<(), postcard::Error> {
    let reply = match result {
        Ok(e) => Reply::Read(WireExtracted {
            title: e.title,
            authors: e.authors,
            chapters: e.chapters.into_iter().map(|c| (c.title, c.text)).collect(),
            formats: e.formats.into_iter().map(WireFormat::from).collect(),
        }),
        Err(e) => Reply::Failed(match e {
            ManuscriptError::TooLarge(m) => WireError::TooLarge(m),
            ManuscriptError::Unreadable(m) => WireError::Unreadable(m),
            ManuscriptError::Kit(KitError::Invalid(field, message)) => WireError::Invalid {
                field: field.to_owned(),
                message,
            },
            other => WireError::Internal(other.to_string()),
        }),
    };
    postcard::to_io(&reply, out).map(|_| ())
}

/// The extraction's result from a worker's reply; `None` when the reply is not one.
pub fn read_reply(reply: &[u8]) -> Option<Result<Extracted>> {
    let (reply, rest) = postcard::take_from_bytes::<Reply>(reply).ok()?;
    if !rest.is_empty() {
        return None;
    }
    Some(match reply {
        Reply::Read(e) => Ok(Extracted {
            title: e.title,
            authors: e.authors,
            chapters: e
                .chapters
                .into_iter()
                .map(|(title, text)| ChapterText { title, text })
                .collect(),
            formats: e.formats.into_iter().map(ManuscriptFormat::from).collect(),
        }),
        Reply::Failed(WireError::TooLarge(m)) => Err(ManuscriptError::TooLarge(m)),
        Reply::Failed(WireError::Unreadable(m)) => Err(ManuscriptError::Unreadable(m)),
        Reply::Failed(WireError::Invalid { field, message }) => {
            let field = FIELDS.into_iter().find(|f| *f == field)?;
            Err(ManuscriptError::invalid(field, message))
        }
        Reply::Failed(WireError::Internal(m)) => Err(ManuscriptError::internal(format!(
            "extraction worker failed: {m}"
        ))),
    })
}

impl From<ManuscriptFormat> for WireFormat {
    fn from(f: ManuscriptFormat) -> Self {
        match f {
            ManuscriptFormat::Epub => Self::Epub,
            ManuscriptFormat::Pdf => Self::Pdf,
            ManuscriptFormat::Txt => Self::Txt,
            ManuscriptFormat::Docx => Self::Docx,
            ManuscriptFormat::Markdown => Self::Markdown,
        }
    }
}

impl From<WireFormat> for ManuscriptFormat {
    fn from(f: WireFormat) -> Self {
        match f {
            WireFormat::Epub => Self::Epub,
            WireFormat::Pdf => Self::Pdf,
            WireFormat::Txt => Self::Txt,
            WireFormat::Docx => Self::Docx,
            WireFormat::Markdown => Self::Markdown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, data: &[u8]) -> File {
        File {
            name: name.into(),
            data: Bytes::copy_from_slice(data),
        }
    }

    fn request(files: &[File]) -> Bytes {
        let mut wire = request_head(files, Split::FilePerChapter, 1234).unwrap();
        for f in files {
            wire.extend_from_slice(&f.data);
        }
        Bytes::from(wire)
    }

    #[test]
    fn a_request_reads_back_as_it_was_sent() {
        let files = [file("a.txt", b"first"), file("b.md", b"# second")];
        let read = Request::decode(request(&files)).unwrap();
        assert_eq!(read.split, Split::FilePerChapter);
        assert_eq!(read.max_text_chars, 1234);
        let got: Vec<(&str, &[u8])> = read
            .files
            .iter()
            .map(|f| (f.name.as_str(), &f.data[..]))
            .collect();
        assert_eq!(got, [("a.txt", &b"first"[..]), ("b.md", &b"# second"[..])]);
    }

    #[test]
    fn a_request_cut_short_or_overlong_is_refused() {
        let wire = request(&[file("a.txt", b"first")]);
        assert!(Request::decode(wire.slice(..wire.len() - 1)).is_err());
        let mut longer = wire.to_vec();
        longer.push(b'!');
        assert!(Request::decode(Bytes::from(longer)).is_err());
    }

    #[test]
    fn a_reply_reads_back_as_it_was_written() {
        let extracted = Extracted {
            title: "The Keeper".into(),
            authors: vec!["Ann Lee".into()],
            chapters: vec![ChapterText {
                title: "One".into(),
                text: "The keeper walked.".into(),
            }],
            formats: vec![ManuscriptFormat::Docx],
        };
        let mut wire = Vec::new();
        write_reply(Ok(extracted.clone()), &mut wire).unwrap();
        let read = read_reply(&wire).unwrap().unwrap();
        assert_eq!(read.title, extracted.title);
        assert_eq!(read.authors, extracted.authors);
        assert_eq!(read.chapters, extracted.chapters);
        assert_eq!(read.formats, extracted.formats);
    }

    #[test]
    fn an_error_keeps_its_kind_and_message() {
        let mut wire = Vec::new();
        let invalid = ManuscriptError::invalid("files", "b.exe: not a manuscript");
        write_reply(Err(invalid), &mut wire).unwrap();
        let err = read_reply(&wire).unwrap().unwrap_err();
        assert!(
            matches!(&err, ManuscriptError::Kit(KitError::Invalid("files", m)) if m == "b.exe: not a manuscript"),
            "{err:?}"
        );
        wire.clear();
        write_reply(Err(ManuscriptError::TooLarge("too long".into())), &mut wire).unwrap();
        let err = read_reply(&wire).unwrap().unwrap_err();
        assert!(matches!(&err, ManuscriptError::TooLarge(m) if m == "too long"));
    }

    #[test]
    fn garbage_is_no_reply() {
        assert!(read_reply(b"").is_none());
        let mut wire = Vec::new();
        write_reply(Err(ManuscriptError::TooLarge("too long".into())), &mut wire).unwrap();
        wire.push(0);
        assert!(read_reply(&wire).is_none(), "bytes after the reply");
        assert!(read_reply(b"\x07\xff\xff\xff\xff\xff garbage").is_none());
        wire.clear();
        let unknown = Reply::Failed(WireError::Invalid {
            field: "price".into(),
            message: "no".into(),
        });
        postcard::to_io(&unknown, &mut wire).unwrap();
        assert!(
            read_reply(&wire).is_none(),
            "a field extraction never names"
        );
    }
}
