//! Reading `multipart/form-data` bodies with hard caps: every field is read chunk by
//! chunk and refused the moment it passes its cap, so a huge upload costs the gateway
//! no more memory than the cap allows.

use std::collections::HashMap;

use actix_multipart::Multipart;
use futures::TryStreamExt;
use quire_kit::{ApiError, ErrorCode};

use crate::envelope::Failure;

/// Caps for one form.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Largest text field, in bytes.
    pub text_bytes: usize,
    /// Largest file, in bytes (for a file field that may repeat: all its files together).
    pub file_bytes: usize,
    /// Most fields in one form.
    pub fields: usize,
}

/// A file field: the name the browser sent (never used as a path) and its bytes.
#[derive(Debug, Clone)]
pub struct FilePart {
    pub file_name: String,
    pub data: Vec<u8>,
}

/// The fields of a form, text and file.
#[derive(Debug, Default)]
pub struct Form {
    texts: HashMap<String, String>,
    files: HashMap<String, Vec<FilePart>>,
}

impl Form {
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.get(name).map(String::as_str)
    }
    pub fn take_file(&mut self, name: &str) -> Option<FilePart> {
        self.files.remove(name).and_then(|f| f.into_iter().next())
    }
    /// Every file of a field that may repeat, in the order sent.
    pub fn take_files(&mut self, name: &str) -> Vec<FilePart> {
        self.files.remove(name).unwrap_or_default()
    }
}

fn too_large(field: &str, cap: usize) -> Failure {
    Failure(ApiError::new(
        ErrorCode::PayloadTooLarge,
        "payload_too_large",
        format!("{field}: larger than {} KiB", cap / 1024),
    ))
}

fn malformed(error: actix_multipart::MultipartError) -> Failure {
    if crate::body_deadline::timed_out(&error) {
        return crate::body_deadline::failure();
    }
    Failure::bad_request(
        "invalid_multipart",
        format!("Invalid multipart/form-data body: {error}"),
    )
}

/// Reads the whole form; the fields named in `file_fields` are files (`cap.file_bytes`),
/// every other field is UTF-8 text (`cap.text_bytes`).
pub async fn read(multipart: Multipart, file_fields: &[&str], caps: Caps) -> Result<Form, Failure> {
    read_form(multipart, file_fields, &[], caps).await
}

/// Like [`read`], where the file fields named in `repeated` may come many times (several
/// files of one upload, kept in order; all of them together at most `caps.file_bytes`).
pub async fn read_repeated(
    multipart: Multipart,
    repeated: &[&str],
    caps: Caps,
) -> Result<Form, Failure> {
    read_form(multipart, repeated, repeated, caps).await
}

async fn read_form(
    mut multipart: Multipart,
    file_fields: &[&str],
    repeated: &[&str],
    caps: Caps,
) -> Result<Form, Failure> {
    let mut form = Form::default();
    let mut count = 0usize;
    while let Some(mut field) = multipart.try_next().await.map_err(malformed)? {
        count += 1;
        if count > caps.fields {
            return Err(Failure::bad_request(
                "invalid_multipart",
                format!("Too many form fields (at most {})", caps.fields),
            ));
        }
        let name = field.name().unwrap_or_default().to_owned();
        let is_file = file_fields.contains(&name.as_str());
        let repeats = repeated.contains(&name.as_str());
        let cap = if repeats {
            let used: usize = form
                .files
                .get(&name)
                .into_iter()
                .flatten()
                .map(|f| f.data.len())
                .sum();
            caps.file_bytes.saturating_sub(used)
        } else if is_file {
            caps.file_bytes
        } else {
            caps.text_bytes
        };
        let file_name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let mut data = Vec::new();
        while let Some(chunk) = field.try_next().await.map_err(malformed)? {
            if data.len() + chunk.len() > cap {
                return Err(too_large(
                    &name,
                    if repeats { caps.file_bytes } else { cap },
                ));
            }
            data.extend_from_slice(&chunk);
        }
        if form.texts.contains_key(&name) || (!repeats && form.files.contains_key(&name)) {
            return Err(Failure::bad_request(
                "invalid_multipart",
                format!("{name}: given more than once"),
            ));
        }
        if is_file {
            // A file input left empty arrives as a part with no name and no bytes.
            let file_name = file_name.unwrap_or_default();
            if !(file_name.is_empty() && data.is_empty()) {
                form.files
                    .entry(name)
                    .or_default()
                    .push(FilePart { file_name, data });
            }
        } else {
            let text = String::from_utf8(data).map_err(|_| {
                Failure::bad_request("invalid_text", format!("{name}: not UTF-8 text"))
            })?;
            crate::plain_text::field(&name, &text)?;
            form.texts.insert(name, text);
        }
    }
    Ok(form)
}
