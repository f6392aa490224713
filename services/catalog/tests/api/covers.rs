//! Uploaded covers are shown to every visitor: only real images are taken, and what is
//! stored is an image catalog encoded itself.

use std::io::Cursor;

use image::{ImageFormat, RgbImage};
use quire_fixtures::hostile::png_declaring;
use quire_proto::catalog::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, User, epub, req};

/// A picture with some detail (a gradient), encoded as `format`.
fn picture(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
    let img = RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8])
    });
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// Bytes that look random (a fixed xorshift sequence): what noise behind a header is.
fn noise(len: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

struct Shelf {
    app: TestApp,
    writer: User,
    book: pb::Book,
}

impl Shelf {
    async fn new() -> Self {
        let app = TestApp::spawn().await;
        let writer = app.user(&["writer"]).await;
        let book = app
            .create_book(
                &writer,
                "The Painted Cover",
                vec![("cover.epub", epub("The Painted Cover", 2, 3))],
                true,
            )
            .await;
        Shelf { app, writer, book }
    }

    async fn upload(&self, data: Vec<u8>) -> Result<(), tonic::Status> {
        let request = pb::UpdateBookRequest {
            uid: self.writer.id.clone(),
            book_id: self.book.book_id.clone(),
            cover: Some(pb::UploadedFile {
                file_name: "cover.png".into(),
                data,
            }),
            ..Default::default()
        };
        self.app
            .client()
            .update_book(req(request, Some(&self.writer)))
            .await
            .map(|_| ())
    }

    /// The cover as any visitor gets it.
    async fn cover(&self) -> pb::Image {
        self.app
            .client()
            .get_cover(req(
                pb::GetCoverRequest {
                    book_id: self.book.book_id.clone(),
                    kind: String::new(),
                },
                None,
            ))
            .await
            .unwrap()
            .into_inner()
    }

    /// Uploading `data` is a 400 naming the cover, and the cover stays as it was.
    async fn assert_refused(&self, data: Vec<u8>) {
        let before = self.cover().await;
        let refused = self.upload(data).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert!(refused.message().contains("cover"), "{}", refused.message());
        assert_eq!(self.cover().await, before, "the cover did not change");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn noise_behind_a_png_signature_is_refused_and_the_cover_stays_as_it_was() {
    let shelf = Shelf::new().await;
    let noisy = [b"\x89PNG\r\n\x1a\n".as_slice(), &noise(5 * 1024 * 1024)].concat();

    shelf.assert_refused(noisy.clone()).await;
    assert_eq!(
        shelf.cover().await.content_type,
        "image/svg+xml",
        "still the drawn one"
    );

    // Also after a real cover: that one stays.
    shelf
        .upload(picture(60, 90, ImageFormat::Png))
        .await
        .unwrap();
    assert_eq!(shelf.cover().await.content_type, "image/jpeg");
    shelf.assert_refused(noisy.clone()).await;

    // A new book with such a cover is not created at all.
    let refused = shelf
        .app
        .client()
        .create_book(req(
            pb::CreateBookRequest {
                title: "Noisy".into(),
                files: vec![pb::UploadedFile {
                    file_name: "noisy.epub".into(),
                    data: epub("Noisy", 2, 2),
                }],
                cover: Some(pb::UploadedFile {
                    file_name: "c.png".into(),
                    data: noisy,
                }),
                ..Default::default()
            },
            Some(&shelf.writer),
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_png_declaring_65535_pixels_a_side_is_refused() {
    let shelf = Shelf::new().await;
    shelf.assert_refused(png_declaring(65_535, 65_535)).await;
    shelf.assert_refused(png_declaring(9000, 10)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_byte_jpeg_is_refused() {
    let shelf = Shelf::new().await;
    shelf.assert_refused(vec![0xFF, 0xD8, 0xFF, 0xE0]).await;
    let truncated = picture(40, 40, ImageFormat::Jpeg)[..200].to_vec();
    shelf.assert_refused(truncated).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_png_and_jpeg_covers_are_stored_as_images_catalog_encoded() {
    let shelf = Shelf::new().await;
    for (upload, size) in [
        (picture(120, 180, ImageFormat::Png), (120, 180)),
        (picture(200, 300, ImageFormat::Jpeg), (200, 300)),
        // Larger than a cover needs: scaled down to 1600 on the long side.
        (picture(1200, 2400, ImageFormat::Jpeg), (800, 1600)),
    ] {
        shelf.upload(upload.clone()).await.unwrap();
        let cover = shelf.cover().await;
        assert_eq!(cover.content_type, "image/jpeg");
        assert_ne!(cover.data, upload, "the stored bytes are ours");
        let shown = image::load_from_memory(&cover.data).expect("the cover decodes");
        assert_eq!((shown.width(), shown.height()), size);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_svg_cover_keeps_its_drawing_and_loses_its_script() {
    let shelf = Shelf::new().await;
    // The demo shop's covers are SVG.
    let drawn = quire_fixtures::cover::svg("The Painted Cover", "Ada Writer", "Poetry");
    shelf.upload(drawn).await.unwrap();
    let cover = shelf.cover().await;
    assert_eq!(cover.content_type, "image/svg+xml");
    let stored = String::from_utf8(cover.data).unwrap();
    for kept in [
        ">The Painted</text>",
        ">Cover</text>",
        ">Ada Writer</text>",
        "<circle",
    ] {
        assert!(stored.contains(kept), "{kept} is lost: {stored}");
    }

    let scripted = "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\">\
<script>alert(document.cookie)</script><rect width=\"10\" height=\"10\" onclick=\"alert(2)\"/>\
<a href=\"javascript:alert(3)\"><text>x</text></a></svg>";
    shelf.upload(scripted.as_bytes().to_vec()).await.unwrap();
    let stored = String::from_utf8(shelf.cover().await.data).unwrap();
    for gone in ["script", "alert", "onload", "onclick"] {
        assert!(!stored.contains(gone), "{gone} in {stored}");
    }
    assert!(
        stored.contains("<rect width=\"10\" height=\"10\"/>"),
        "{stored}"
    );

    shelf
        .assert_refused(b"<svg xmlns=\"http://www.w3.org/2000/svg\"><rect></svg>".to_vec())
        .await;
}
