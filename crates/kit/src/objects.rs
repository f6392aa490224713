//! The object store holding a service's files (book files, covers, manuscripts): a local
//! folder, an S3 bucket or, for tests, memory. Which keys a service uses is its own affair;
//! keys should be made from ids only, never from a file name a user chose.

use std::sync::Arc;

use bytes::Bytes;
use object_store::ObjectStore;
use object_store::path::Path;

use crate::error::KitError;

#[derive(Clone)]
pub struct Objects {
    store: Arc<dyn ObjectStore>,
}

/// The store a service was given (`QUIRE_OBJECT_STORE_URL`), else a folder `objects` under
/// the data directory (`QUIRE_DATA_DIR`, default `./.quire-data`), as an absolute file URL.
pub fn url_or_default(configured: Option<&str>) -> String {
    if let Some(url) = configured {
        return url.to_owned();
    }
    let base = std::env::var("QUIRE_DATA_DIR").unwrap_or_else(|_| "./.quire-data".into());
    let dir = std::path::Path::new(&base).join("objects");
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    format!("file://{}", dir.display())
}

impl Objects {
    /// `file:///abs/dir` (created when missing), `s3://bucket` (settings from `AWS_*`) or
    /// `memory://`.
    pub fn open(url: &str) -> anyhow::Result<Self> {
        let store: Arc<dyn ObjectStore> = if let Some(dir) = url.strip_prefix("file://") {
            std::fs::create_dir_all(dir)?;
            Arc::new(object_store::local::LocalFileSystem::new_with_prefix(dir)?)
        } else if let Some(bucket) = url.strip_prefix("s3://") {
            let bucket = bucket.trim_end_matches('/');
            Arc::new(
                object_store::aws::AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()?,
            )
        } else if url == "memory://" {
            Arc::new(object_store::memory::InMemory::new())
        } else {
            anyhow::bail!("unsupported object store url {url:?}: use file:///dir or s3://bucket");
        };
        Ok(Self { store })
    }

    pub async fn put(&self, key: &str, data: Bytes) -> Result<(), KitError> {
        self.store.put(&Path::from(key), data.into()).await?;
        Ok(())
    }

    /// A missing object is an internal error: keys come from the service's own rows.
    pub async fn get(&self, key: &str) -> Result<Bytes, KitError> {
        let found = self.store.get(&Path::from(key)).await;
        match found {
            Ok(r) => Ok(r.bytes().await?),
            Err(object_store::Error::NotFound { .. }) => Err(KitError::Internal(format!(
                "object {key} is missing from the store"
            ))),
            Err(e) => Err(e.into()),
        }
    }

    /// Removes the object under `key`; one already gone is no error (a clean-up may run
    /// twice).
    pub async fn delete(&self, key: &str) -> Result<(), KitError> {
        match self.store.delete(&Path::from(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file store in a new folder of its own, and the folder.
    fn folder_store() -> (Objects, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("quire-kit-objects-{}", uuid::Uuid::new_v4()));
        let objects = Objects::open(&format!("file://{}", dir.display())).unwrap();
        (objects, dir)
    }

    #[tokio::test]
    async fn a_file_store_keeps_what_was_put_under_its_key() {
        let (objects, dir) = folder_store();
        objects
            .put("books/1/files/0.epub", Bytes::from_static(b"chapter one"))
            .await
            .unwrap();
        let back = objects.get("books/1/files/0.epub").await.unwrap();
        assert_eq!(back.as_ref(), b"chapter one");
        assert!(dir.join("books/1/files/0.epub").is_file(), "a real file");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn a_missing_object_is_an_internal_error_naming_its_key() {
        let objects = Objects::open("memory://").unwrap();
        let missing = objects.get("books/2/cover.png").await.unwrap_err();
        assert!(
            matches!(&missing, KitError::Internal(m) if m.contains("books/2/cover.png")),
            "{missing:?}"
        );
    }

    #[tokio::test]
    async fn a_deleted_object_is_gone_and_deleting_it_again_is_no_error() {
        let (objects, dir) = folder_store();
        objects
            .put("manuscripts/1/files/0", Bytes::from_static(b"draft"))
            .await
            .unwrap();
        objects.delete("manuscripts/1/files/0").await.unwrap();
        assert!(!dir.join("manuscripts/1/files/0").exists());
        objects.delete("manuscripts/1/files/0").await.unwrap();
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_configured_store_wins_and_the_default_is_an_absolute_folder() {
        assert_eq!(url_or_default(Some("s3://books")), "s3://books");
        let default = url_or_default(None);
        let dir = default.strip_prefix("file://").unwrap();
        assert!(std::path::Path::new(dir).is_absolute(), "{default}");
        assert!(dir.ends_with("objects"), "{default}");
    }

    #[test]
    fn an_unknown_scheme_is_refused_with_the_accepted_ones() {
        let refused = Objects::open("ftp://books").err().unwrap();
        assert!(refused.to_string().contains("s3://bucket"), "{refused}");
    }
}
