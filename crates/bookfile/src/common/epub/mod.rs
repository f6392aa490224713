//! The epub container as books and manuscripts are opened: the package (container.xml, the
//! OPF's metadata, manifest and spine), the table of contents' chapter titles, and the
//! refusal of DRM-encrypted chapters.

pub(crate) mod encryption;
pub(crate) mod package;
pub(crate) mod toc;
