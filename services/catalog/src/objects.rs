//! The object store holding book files and covers: a local folder or an S3 bucket.
//! Keys are made from ids only (`books/<id>/files/0.epub`), never from a file name.

use std::sync::Arc;

use bytes::Bytes;
use object_store::ObjectStore;
use object_store::path::Path;
use uuid::Uuid;

use crate::error::{CatalogError, Result};

#[derive(Clone)]
pub struct Objects {
    store: Arc<dyn ObjectStore>,
}

impl Objects {
    /// `file:///abs/dir` (created when missing) or `s3://bucket` (settings from `AWS_*`).
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

    pub async fn put(&self, key: &str, data: Bytes) -> Result<()> {
        self.store.put(&Path::from(key), data.into()).await?;
        Ok(())
    }

    pub async fn get(&self, key: &str) -> Result<Bytes> {
        let found = self.store.get(&Path::from(key)).await;
        match found {
            Ok(r) => Ok(r.bytes().await?),
            Err(object_store::Error::NotFound { .. }) => Err(CatalogError::Internal(format!(
                "object {key} is missing from the store"
            ))),
            Err(e) => Err(e.into()),
        }
    }
}

/// Where the `index`-th file of a book lives.
pub fn file_key(book_id: Uuid, index: usize, extension: &str) -> String {
    format!("books/{book_id}/files/{index}.{extension}")
}

/// Where a book's uploaded cover lives; the extension tells its type.
pub fn cover_key(book_id: Uuid, extension: &str) -> String {
    format!("books/{book_id}/cover.{extension}")
}
