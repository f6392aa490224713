use quire_proto::catalog::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, code, epub, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_creates_a_book_from_an_epub_and_reads_it_back() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["reader", "writer"]).await;
    let file = epub("The Keeper's Ledger", 6, 20);
    let book = app
        .create_book(
            &writer,
            "The Keeper's Ledger",
            vec![("ledger.epub", file.clone())],
            false,
        )
        .await;
    assert_eq!(book.title, "The Keeper's Ledger");
    assert_eq!(book.format, "epub");
    assert_eq!(book.upload_writer_id, writer.id);
    assert_eq!(book.price_cents, 499);
    assert_eq!(book.file_size as usize, file.len());
    assert!(book.chapter_count >= 6, "chapters: {}", book.chapter_count);
    assert!(!book.listed && !book.on);
    assert!(book.entitled);
    assert_eq!(
        book.cover_image,
        format!("/api/books/{}/cover", book.book_id)
    );

    for path in ["healthz", "readyz"] {
        let url = format!("http://127.0.0.1:{}/{path}", app.admin_port);
        assert_eq!(reqwest::get(url).await.unwrap().status(), 200);
    }

    let mut c = app.client();
    let got = c
        .get_book(req(
            pb::GetBookRequest {
                book_id: book.book_id.clone(),
            },
            Some(&writer),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(got.book_id, book.book_id);
    let mine = c
        .get_books(req(
            pb::GetBooksRequest {
                upload_writer_id: writer.id.clone(),
                ..Default::default()
            },
            Some(&writer),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        mine.books.len(),
        1,
        "the writer sees an unlisted book of theirs"
    );

    let (meta, data) = app.content(&book.book_id, Some(&writer)).await.unwrap();
    assert_eq!(meta.access, "full");
    assert_eq!(meta.content_type, "application/epub+zip");
    assert_eq!(meta.file_name, "the-keeper-s-ledger.epub");
    assert_eq!(data, file, "the writer gets the uploaded file back");

    // Nobody else sees an unlisted book, and the writer's list is empty for them.
    let reader = app.user(&["reader"]).await;
    let hidden = c
        .get_book(req(
            pb::GetBookRequest {
                book_id: book.book_id.clone(),
            },
            Some(&reader),
        ))
        .await;
    assert_eq!(code(hidden), Code::NotFound);
    let theirs = c
        .get_books(req(
            pb::GetBooksRequest {
                upload_writer_id: writer.id.clone(),
                ..Default::default()
            },
            Some(&reader),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(theirs.books.is_empty());

    // The same file again is a conflict.
    let again = c
        .create_book(req(
            pb::CreateBookRequest {
                title: "Again".into(),
                files: vec![pb::UploadedFile {
                    file_name: "again.epub".into(),
                    data: file,
                }],
                ..Default::default()
            },
            Some(&writer),
        ))
        .await;
    assert_eq!(code(again), Code::AlreadyExists);

    // A drawn cover and spine.
    for kind in ["", "spine"] {
        let image = c
            .get_cover(req(
                pb::GetCoverRequest {
                    book_id: book.book_id.clone(),
                    kind: kind.into(),
                },
                Some(&writer),
            ))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(image.content_type, "image/svg+xml");
        assert!(String::from_utf8(image.data).unwrap().contains("Keeper"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn someone_else_cannot_update_or_switch_a_book_and_bad_input_is_a_400() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let other = app.user(&["writer", "reader"]).await;
    let book = app
        .create_book(
            &writer,
            "Owned",
            vec![("owned.epub", epub("Owned", 3, 5))],
            true,
        )
        .await;
    let mut c = app.client();

    let update = |uid: &str, title: &str| pb::UpdateBookRequest {
        uid: uid.into(),
        book_id: book.book_id.clone(),
        title: Some(title.into()),
        ..Default::default()
    };
    assert_eq!(
        code(
            c.update_book(req(update(&other.id, "Mine now"), Some(&other)))
                .await
        ),
        Code::PermissionDenied
    );
    assert_eq!(
        code(
            c.update_book(req(update(&writer.id, "Mine now"), Some(&other)))
                .await
        ),
        Code::PermissionDenied,
        "a uid naming someone else is refused"
    );
    let switch = |user_id: &str, on: bool| pb::SetPublishStatusRequest {
        user_id: user_id.into(),
        book_id: book.book_id.clone(),
        on,
    };
    assert_eq!(
        code(
            c.set_publish_status(req(switch(&other.id, false), Some(&other)))
                .await
        ),
        Code::PermissionDenied
    );
    assert_eq!(
        code(
            c.set_publish_status(req(switch(&writer.id, false), Some(&other)))
                .await
        ),
        Code::PermissionDenied
    );
    assert_eq!(
        code(
            c.set_publish_status(req(switch(&writer.id, false), None))
                .await
        ),
        Code::Unauthenticated
    );

    // The writer may; an admin may act for the writer.
    let updated = c
        .update_book(req(
            pb::UpdateBookRequest {
                price_cents: Some(250),
                tags_set: true,
                tags: vec!["sea".into(), "light".into()],
                ..update(&writer.id, "Owned, revised")
            },
            Some(&writer),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(updated.title, "Owned, revised");
    assert_eq!(updated.price_cents, 250);
    assert_eq!(updated.tags, vec!["sea", "light"]);
    let status = c
        .set_publish_status(req(switch(&writer.id, false), Some(&app.admin)))
        .await
        .unwrap()
        .into_inner();
    assert!(!status.on && !status.listed);

    // Unknown ids are 404, bad ones 400.
    let unknown = uuid::Uuid::now_v7().to_string();
    assert_eq!(
        code(
            c.get_book(req(
                pb::GetBookRequest {
                    book_id: unknown.clone()
                },
                None
            ))
            .await
        ),
        Code::NotFound
    );
    assert_eq!(
        code(
            c.update_book(req(
                pb::UpdateBookRequest {
                    book_id: unknown,
                    ..update(&writer.id, "x")
                },
                Some(&writer)
            ))
            .await
        ),
        Code::NotFound
    );
    assert_eq!(
        code(
            c.get_book(req(
                pb::GetBookRequest {
                    book_id: "nope".into()
                },
                None
            ))
            .await
        ),
        Code::InvalidArgument
    );
    for bad in [
        pb::UpdateBookRequest {
            price_cents: Some(-1),
            ..update(&writer.id, "ok")
        },
        pb::UpdateBookRequest {
            price_cents: Some(100_000_001),
            ..update(&writer.id, "ok")
        },
        update(&writer.id, "   "),
        pb::UpdateBookRequest {
            publish_date: Some("yesterday".into()),
            ..update(&writer.id, "ok")
        },
    ] {
        let e = c.update_book(req(bad, Some(&writer))).await.unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{}", e.message());
    }
    // An uploaded cover replaces the drawn one; something else is refused.
    let mut png = std::io::Cursor::new(Vec::new());
    image::RgbImage::from_pixel(4, 6, image::Rgb([10, 90, 200]))
        .write_to(&mut png, image::ImageFormat::Png)
        .unwrap();
    let with_cover = pb::UpdateBookRequest {
        cover: Some(pb::UploadedFile {
            file_name: "c.png".into(),
            data: png.into_inner(),
        }),
        ..pb::UpdateBookRequest {
            uid: writer.id.clone(),
            book_id: book.book_id.clone(),
            ..Default::default()
        }
    };
    c.update_book(req(with_cover, Some(&writer))).await.unwrap();
    let cover = c
        .get_cover(req(
            pb::GetCoverRequest {
                book_id: book.book_id.clone(),
                kind: String::new(),
            },
            Some(&writer),
        ))
        .await
        .unwrap()
        .into_inner();
    // Stored as catalog encoded it again (see covers.rs).
    assert_eq!(cover.content_type, "image/jpeg");
    let shown = image::load_from_memory(&cover.data).unwrap();
    assert_eq!((shown.width(), shown.height()), (4, 6));
    let not_image = pb::UpdateBookRequest {
        cover: Some(pb::UploadedFile {
            file_name: "c.png".into(),
            data: b"MZ not an image".to_vec(),
        }),
        ..pb::UpdateBookRequest {
            uid: writer.id.clone(),
            book_id: book.book_id.clone(),
            ..Default::default()
        }
    };
    assert_eq!(
        code(c.update_book(req(not_image, Some(&writer))).await),
        Code::InvalidArgument
    );

    let big_page = c
        .list_books(req(
            pb::ListBooksRequest {
                page_size: 101,
                ..Default::default()
            },
            None,
        ))
        .await;
    assert_eq!(code(big_page), Code::InvalidArgument);

    // Files that are no book, or too large, are refused without a 500.
    let garbage = c
        .create_book(req(
            pb::CreateBookRequest {
                title: "Garbage".into(),
                files: vec![pb::UploadedFile {
                    file_name: "garbage.epub".into(),
                    data: b"this is not a zip".to_vec(),
                }],
                ..Default::default()
            },
            Some(&writer),
        ))
        .await
        .unwrap_err();
    assert!(
        matches!(
            garbage.code(),
            Code::InvalidArgument | Code::FailedPrecondition
        ),
        "{garbage:?}"
    );
    let none = c
        .create_book(req(
            pb::CreateBookRequest {
                title: "Empty".into(),
                ..Default::default()
            },
            Some(&writer),
        ))
        .await;
    assert_eq!(code(none), Code::InvalidArgument);
    let reader = app.user(&["reader"]).await;
    let not_writer = c
        .create_book(req(
            pb::CreateBookRequest {
                title: "By a reader".into(),
                files: vec![pb::UploadedFile {
                    file_name: "r.epub".into(),
                    data: epub("R", 2, 2),
                }],
                ..Default::default()
            },
            Some(&reader),
        ))
        .await;
    assert_eq!(code(not_writer), Code::PermissionDenied);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shop_lists_filters_sorts_and_pages_listed_books() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let mut ids = Vec::new();
    for (i, title) in ["Alpha", "Bravo", "Charlie"].iter().enumerate() {
        let b = app
            .create_book(
                &writer,
                title,
                vec![("b.epub", epub(title, 2, 3 + i))],
                true,
            )
            .await;
        ids.push(b.book_id);
    }
    let hidden = app
        .create_book(
            &writer,
            "Hidden",
            vec![("h.epub", epub("Hidden", 2, 9))],
            false,
        )
        .await;
    let mut c = app.client();

    // What wallet asks before a trade.
    let sale = c
        .get_book_for_sale(req(
            pb::GetBookForSaleRequest {
                book_id: ids[0].clone(),
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (sale.price_cents, sale.seller_uid.as_str()),
        (499, writer.id.as_str())
    );
    let not_listed = c
        .get_book_for_sale(req(
            pb::GetBookForSaleRequest {
                book_id: hidden.book_id.clone(),
            },
            None,
        ))
        .await;
    assert_eq!(
        code(not_listed),
        Code::AlreadyExists,
        "409: not in the shop"
    );

    let all = c
        .list_books(req(
            pb::ListBooksRequest {
                upload_writer_id: writer.id.clone(),
                sort: "title".into(),
                price_min_cents: -1,
                price_max_cents: -1,
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.total, 3, "the unlisted book is not in the shop");
    let titles: Vec<_> = all.books.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(titles, ["Alpha", "Bravo", "Charlie"]);
    let page2 = c
        .list_books(req(
            pb::ListBooksRequest {
                upload_writer_id: writer.id.clone(),
                sort: "oldest".into(),
                page: 2,
                page_size: 2,
                price_min_cents: -1,
                price_max_cents: -1,
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((page2.total, page2.page, page2.books.len()), (3, 2, 1));
    assert_eq!(page2.books[0].book_id, ids[2]);
    let bad_sort = c
        .list_books(req(
            pb::ListBooksRequest {
                sort: "random".into(),
                ..Default::default()
            },
            None,
        ))
        .await;
    assert_eq!(code(bad_sort), Code::InvalidArgument);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn books_named_by_id_come_back_listed_only_and_in_the_order_asked() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["reader", "writer"]).await;
    let reader = app.user(&["reader"]).await;
    let first = app
        .create_book(
            &writer,
            "First Light",
            vec![("a.epub", epub("First Light", 2, 10))],
            true,
        )
        .await;
    let second = app
        .create_book(
            &writer,
            "Second Tide",
            vec![("b.epub", epub("Second Tide", 2, 10))],
            true,
        )
        .await;
    let hidden = app
        .create_book(
            &writer,
            "Drawer Draft",
            vec![("c.epub", epub("Drawer Draft", 2, 10))],
            false,
        )
        .await;
    let mut c = app.client();
    let ask = |ids: Vec<String>| {
        req(
            pb::GetBooksRequest {
                book_ids: ids,
                ..Default::default()
            },
            Some(&reader),
        )
    };
    let got = c
        .get_books(ask(vec![
            second.book_id.clone(),
            hidden.book_id.clone(),
            first.book_id.clone(),
            uuid::Uuid::now_v7().to_string(),
        ]))
        .await
        .unwrap()
        .into_inner();
    let titles: Vec<&str> = got.books.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Second Tide", "First Light"],
        "listed books in the order asked; the unlisted and the unknown left out"
    );
    assert!(
        got.books
            .iter()
            .all(|b| b.long_summary.is_empty() && !b.bought)
    );

    assert_eq!(
        code(c.get_books(ask(vec!["not-an-id".into()])).await),
        Code::InvalidArgument
    );
    let too_many = (0..101).map(|_| uuid::Uuid::now_v7().to_string()).collect();
    assert_eq!(
        code(c.get_books(ask(too_many)).await),
        Code::InvalidArgument
    );
}
