//! Books through the REST surface: the Book JSON, a writer's edits and switch, the shop's
//! filters, search, publishers' shelves and the admin's take-downs.

use serde_json::json;

use crate::catalog_support::{Multipart, NewBook, PNG, ids};
use crate::support::{TestApp, assert_failure};

fn unique(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_writer_sees_edits_and_switches_their_books() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let stranger = app.writer().await;
    let reader = app.reader_user().await;
    let listed = app.create_book(&writer, NewBook::default()).await;
    let hidden = app
        .create_book(
            &writer,
            NewBook {
                publish: false,
                ..NewBook::default()
            },
        )
        .await;
    let (lid, hid) = (&listed.book_id, &hidden.book_id);

    // The Book JSON of the contract.
    let (s, body) = app
        .get(&format!("/api/get_books?book_id={lid}"), None)
        .await;
    assert_eq!(s, 200, "{body}");
    let b = &body["data"][0];
    assert_eq!(b["id"], lid.as_str());
    assert_eq!(b["book_id"], lid.as_str());
    assert_eq!(b["price"], 4.99);
    assert_eq!(b["price_cents"], 499);
    assert_eq!(b["cover_image"], format!("/api/books/{lid}/cover"));
    assert_eq!(b["format"], "epub");
    assert_eq!(b["listed"], true);
    assert_eq!(b["on"], true);
    assert_eq!(b["taken_down"], false);
    assert_eq!(b["upload_writer_id"], writer.id.as_str());
    assert_eq!(b["chapter_count"], 10);
    assert!(b["tags"].is_array() && b["authors"].is_array(), "{b}");
    assert!(b["file_size"].as_u64().unwrap() > 0);

    // The unlisted book is the writer's alone.
    let (s, body) = app
        .get(&format!("/api/get_books?book_id={hid}"), None)
        .await;
    assert_failure(s, &body, 404, None);
    let (s, body) = app
        .get(
            &format!("/api/get_books?book_id={hid}"),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 404, None);
    let (s, body) = app
        .get(
            &format!("/api/get_books?book_id={hid}"),
            Some(&writer.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (_, mine) = app
        .get(
            &format!("/api/get_books?upload_writer_id={}", writer.id),
            Some(&writer.token),
        )
        .await;
    let mine = ids(&mine["data"]);
    assert!(mine.contains(lid) && mine.contains(hid), "{mine:?}");
    let (_, public) = app
        .get(&format!("/api/get_books?uid={}", writer.id), None)
        .await;
    assert_eq!(ids(&public["data"]), vec![lid.clone()]);

    // Edits: multipart, the changed fields only.
    let (s, body) = Multipart::new()
        .text("uid", &writer.id)
        .text("book_id", lid)
        .text("title", "The Keeper's Stair")
        .text("price", "5.25")
        .text("tags", "storm, sea ,, light")
        .text("authors", "Ada Writer, Bo Second")
        .text("assessment_score", "8.5")
        .file("cover", "cover.png", "image/png", PNG)
        .post(&app, "/api/update_book/", Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{body}");
    let b = &body["data"];
    assert_eq!(b["title"], "The Keeper's Stair");
    assert_eq!(b["price"], 5.25);
    assert_eq!(b["price_cents"], 525);
    assert_eq!(b["tags"], json!(["storm", "sea", "light"]));
    assert_eq!(b["authors"], json!(["Ada Writer", "Bo Second"]));
    assert_eq!(
        b["short_summary"],
        listed.short_summary.as_str(),
        "unsent fields keep their value"
    );
    let cover = app.raw(&format!("/api/books/{lid}/cover"), None).await;
    assert_eq!(cover.status, 200);
    // Catalog stores covers it encoded itself (a JPEG), never the uploaded bytes.
    assert_eq!(cover.header("content-type"), Some("image/jpeg"));
    assert!(cover.body.starts_with(&[0xFF, 0xD8, 0xFF]), "a JPEG");
    assert_ne!(cover.body, PNG);
    assert_eq!(cover.header("x-content-type-options"), Some("nosniff"));
    let spine = app.raw(&format!("/api/books/{lid}/spine"), None).await;
    assert_eq!(spine.status, 200, "{}", spine.text());
    assert!(spine.header("content-type").unwrap().starts_with("image/"));

    // Nobody else edits it; bad input changes nothing.
    for (who, status) in [(&stranger.token, 403), (&reader.token, 403)] {
        let (s, body) = Multipart::new()
            .text("uid", &writer.id)
            .text("book_id", lid)
            .text("title", "Stolen")
            .post(&app, "/api/update_book/", Some(who))
            .await;
        assert_failure(s, &body, status, None);
    }
    let (s, body) = Multipart::new()
        .text("book_id", lid)
        .text("title", "Stolen")
        .post(&app, "/api/update_book/", Some(&stranger.token))
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = Multipart::new()
        .text("book_id", lid)
        .text("title", "Anon")
        .post(&app, "/api/update_book/", None)
        .await;
    assert_failure(s, &body, 401, None);
    for (field, value) in [
        ("price", "1.234"),
        ("price", "-1"),
        ("price", "NaN"),
        ("price", "abc"),
        ("assessment_score", "inf"),
        ("publish_date", "yesterday"),
        ("uid", "nope"),
    ] {
        let (s, body) = Multipart::new()
            .text("book_id", lid)
            .text("title", "Changed")
            .text(field, value)
            .post(&app, "/api/update_book/", Some(&writer.token))
            .await;
        assert_failure(s, &body, 400, None);
        assert!(body["message"].as_str().unwrap().contains(field), "{body}");
    }
    let (s, body) = Multipart::new()
        .text("book_id", lid)
        .file("cover", "big.png", "image/png", &vec![0u8; 6 * 1024 * 1024])
        .post(&app, "/api/update_book/", Some(&writer.token))
        .await;
    assert_failure(s, &body, 413, None);
    let (_, body) = app
        .get(&format!("/api/get_books?book_id={lid}"), None)
        .await;
    assert_eq!(body["data"][0]["title"], "The Keeper's Stair");
    assert_eq!(body["data"][0]["price_cents"], 525);

    // The writer's switch.
    let switch = |user: &str, on: &str| {
        format!("/api/publish_book_status?user_id={user}&book_id={lid}&on_or_off={on}")
    };
    let (s, body) = app
        .post(&switch(&writer.id, "off"), json!({}), Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["on"], false);
    assert_eq!(body["data"]["listed"], false);
    assert_eq!(body["data"]["book_id"], lid.as_str());
    let (s, _) = app
        .get(&format!("/api/get_books?book_id={lid}"), None)
        .await;
    assert_eq!(s, 404);
    let (s, body) = app
        .post(&switch(&writer.id, "true"), json!({}), Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["listed"], true);
    let (s, body) = app
        .post(&switch(&writer.id, "0"), json!({}), Some(&stranger.token))
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(&switch(&stranger.id, "0"), json!({}), Some(&stranger.token))
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(&switch(&writer.id, "maybe"), json!({}), Some(&writer.token))
        .await;
    assert_failure(s, &body, 400, None);
    assert!(
        body["message"].as_str().unwrap().contains("on_or_off"),
        "{body}"
    );
    let (s, body) = app.post(&switch(&writer.id, "off"), json!({}), None).await;
    assert_failure(s, &body, 401, None);
    let (s, _) = app
        .get(&format!("/api/get_books?book_id={lid}"), None)
        .await;
    assert_eq!(s, 200, "still listed after the refused calls");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_shop_filters_sorts_and_pages() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let genre = unique("Genre");
    let mut made = vec![];
    for (price, tag) in [(100, "alpha"), (250, "beta"), (1000, "alpha")] {
        let b = app
            .create_book(
                &writer,
                NewBook {
                    genre: genre.clone(),
                    price_cents: price,
                    tags: vec![tag.into()],
                    ..NewBook::default()
                },
            )
            .await;
        made.push(b.book_id);
    }
    app.create_book(
        &writer,
        NewBook {
            genre: genre.clone(),
            publish: false,
            ..NewBook::default()
        },
    )
    .await;

    let (s, body) = app
        .shop(&[("genre", &genre), ("sort", "price_asc")], None)
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["total"], 3, "unlisted books stay out: {body}");
    assert_eq!(body["data"]["page"], 1);
    assert_eq!(body["data"]["page_size"], 10);
    assert_eq!(ids(&body["data"]), made);
    let (_, body) = app
        .shop(&[("genre", &genre), ("sort", "price_desc")], None)
        .await;
    assert_eq!(
        ids(&body["data"]),
        made.iter().rev().cloned().collect::<Vec<_>>()
    );
    let (_, body) = app
        .shop(
            &[("genre", &genre), ("price_min", "2"), ("price_max", "5.00")],
            None,
        )
        .await;
    assert_eq!(ids(&body["data"]), vec![made[1].clone()]);
    let (_, body) = app
        .shop(
            &[("genre", &genre), ("tags", "alpha"), ("sort", "price_asc")],
            None,
        )
        .await;
    assert_eq!(ids(&body["data"]), vec![made[0].clone(), made[2].clone()]);
    let (_, body) = app
        .shop(
            &[
                ("genre", &genre),
                ("sort", "price_asc"),
                ("page", "2"),
                ("page_size", "1"),
            ],
            None,
        )
        .await;
    assert_eq!(body["data"]["total"], 3);
    assert_eq!(
        body["data"]["total_exact"], true,
        "a genre's total is kept: {body}"
    );
    assert_eq!(ids(&body["data"]), vec![made[1].clone()]);
    // The page after page 2 by its cursor (keyset paging): the third book, and no cursor
    // on the last page.
    let after = body["data"]["next_after"]
        .as_str()
        .expect("a full page's cursor");
    let (s, body) = app
        .shop(
            &[
                ("genre", &genre),
                ("sort", "price_asc"),
                ("page", "3"),
                ("page_size", "1"),
                ("after", after),
            ],
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(ids(&body["data"]), vec![made[2].clone()]);
    let (s, body) = app
        .shop(
            &[
                ("genre", &genre),
                ("sort", "price_asc"),
                ("page", "4"),
                ("page_size", "1"),
                ("after", ids(&body["data"])[0].as_str()),
            ],
            None,
        )
        .await;
    assert_eq!(s, 400, "a book id is no cursor: {body}");
    assert!(
        body["message"].as_str().unwrap_or("").contains("after"),
        "{body}"
    );
    let (s, body) = app
        .send(app.http.post(app.url("/api/get_all_books/")))
        .await;
    assert_eq!(s, 200, "an empty body is the whole shop: {body}");
    for sort in ["newest", "oldest", "title", "rating"] {
        let (s, body) = app.shop(&[("genre", &genre), ("sort", sort)], None).await;
        assert_eq!(s, 200, "{sort}: {body}");
        assert_eq!(body["data"]["total"], 3);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn search_finds_a_switched_on_book_and_forgets_it_switched_off() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let word = unique("zephyrine");
    let genre = unique("Saga");
    let book = app
        .create_book(
            &writer,
            NewBook {
                title: format!("The {word} Harbour"),
                genre: genre.clone(),
                publish: false,
                ..NewBook::default()
            },
        )
        .await;
    let id = book.book_id.clone();
    let query = json!({"query": word});
    assert!(!app.search_ids(query.clone(), None).await.contains(&id));

    let on = format!(
        "/api/publish_book_status?user_id={}&book_id={id}&on_or_off=on",
        writer.id
    );
    let (s, body) = app.post(&on, json!({}), Some(&writer.token)).await;
    assert_eq!(s, 200, "{body}");
    app.eventually("search finds the book", || async {
        app.search_ids(query.clone(), None)
            .await
            .contains(&id)
            .then_some(())
    })
    .await;
    let (_, found) = app.post("/api/search", query.clone(), None).await;
    let hit = &found["data"]["result"][0];
    assert_eq!(hit["id"], id.as_str());
    assert_eq!(hit["book_id"], id.as_str());
    assert!(hit["_score"].as_f64().unwrap() > 0.0, "{hit}");
    assert!(hit["match_percentage"].as_u64().unwrap() > 0, "{hit}");
    assert!(hit["short_summary"].is_string(), "{hit}");
    assert!(!book.long_summary.is_empty(), "the book has a long summary");
    assert!(
        hit.get("long_summary").is_none(),
        "a search hit is a book as lists show it: {hit}"
    );
    assert_eq!(found["data"]["facets"]["genre"][&genre], 1, "{found}");
    assert!(found["data"]["took_ms"].is_u64());
    assert_eq!(found["data"]["page"], 1);
    // Filters: genre, tags as a list or a string, price bounds.
    let with = |extra: serde_json::Value| {
        let mut q = json!({"query": word});
        for (k, v) in extra.as_object().unwrap() {
            q[k] = v.clone();
        }
        q
    };
    assert!(
        app.search_ids(with(json!({"genre": genre})), None)
            .await
            .contains(&id)
    );
    assert!(
        app.search_ids(with(json!({"tags": ["sea"]})), None)
            .await
            .contains(&id)
    );
    assert!(
        app.search_ids(with(json!({"tags": "sea, night"})), None)
            .await
            .contains(&id)
    );
    assert!(
        app.search_ids(with(json!({"price_min": 4, "price_max": "4.99"})), None)
            .await
            .contains(&id)
    );
    assert!(
        !app.search_ids(with(json!({"price_min": 5})), None)
            .await
            .contains(&id)
    );

    let off = on.replace("=on", "=off");
    let (s, body) = app.post(&off, json!({}), Some(&writer.token)).await;
    assert_eq!(s, 200, "{body}");
    app.eventually("search forgets the book", || async {
        (!app.search_ids(query.clone(), None).await.contains(&id)).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_takedown_hides_a_book_from_lists_and_search() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let reader = app.reader_user().await;
    let admin = app.admin().await;
    let word = unique("quillowisp");
    let genre = unique("Takedown");
    let book = app
        .create_book(
            &writer,
            NewBook {
                title: format!("{word} Nights"),
                genre: genre.clone(),
                ..NewBook::default()
            },
        )
        .await;
    let id = book.book_id.clone();
    let query = json!({"query": word});
    app.eventually("search finds the book", || async {
        app.search_ids(query.clone(), None)
            .await
            .contains(&id)
            .then_some(())
    })
    .await;

    let path = format!("/api/admin/books/{id}/takedown");
    let (s, body) = app
        .post(&path, json!({"taken_down": true}), Some(&reader.token))
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(&path, json!({"taken_down": true}), Some(&writer.token))
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(&path, json!({"taken_down": "yes"}), Some(&admin.token))
        .await;
    assert_failure(s, &body, 400, None);
    let (s, body) = app
        .post(
            &path,
            json!({"taken_down": true, "reason": "copyright claim"}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["taken_down"], true);
    assert_eq!(body["data"]["listed"], false);

    let (_, shop) = app.shop(&[("genre", &genre)], None).await;
    assert_eq!(shop["data"]["total"], 0, "{shop}");
    let (s, _) = app.get(&format!("/api/get_books?book_id={id}"), None).await;
    assert_eq!(s, 404);
    let (s, _) = app
        .get(&format!("/api/get_books?book_id={id}"), Some(&writer.token))
        .await;
    assert_eq!(s, 200, "the writer still sees it");
    for path in ["content", "toc", "cover"] {
        let r = app.raw(&format!("/api/books/{id}/{path}"), None).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text());
    }
    let r = app
        .raw(&format!("/api/books/{id}/content"), Some(&writer.token))
        .await;
    assert_eq!(r.header("x-quire-access"), Some("full"));
    app.eventually("search forgets the book", || async {
        (!app.search_ids(query.clone(), None).await.contains(&id)).then_some(())
    })
    .await;
    // The writer's switch cannot bring it back.
    let on = format!(
        "/api/publish_book_status?user_id={}&book_id={id}&on_or_off=on",
        writer.id
    );
    let (_, body) = app.post(&on, json!({}), Some(&writer.token)).await;
    assert_eq!(body["data"]["listed"], false, "{body}");

    // The admin's content screen lists it, listed or not.
    let (s, body) = app
        .get(
            &format!("/api/admin/books?query={word}"),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(ids(&body["data"]), vec![id.clone()]);
    assert_eq!(body["data"]["result"][0]["taken_down"], true);
    let (s, body) = app.get("/api/admin/books", Some(&reader.token)).await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .get("/api/admin/books?page_size=1000", Some(&admin.token))
        .await;
    assert_failure(s, &body, 400, None);

    let (s, body) = app
        .post(&path, json!({"taken_down": false}), Some(&admin.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["listed"], true);
    app.eventually("search finds the restored book", || async {
        app.search_ids(query.clone(), None)
            .await
            .contains(&id)
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_publisher_shelves_listed_books() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let publisher = app.user_with(&["reader", "publisher"]).await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let id = &book.book_id;

    let on = format!(
        "/api/publish_book_status?user_id={}&book_id={id}&on_or_off=on",
        publisher.id
    );
    let (s, body) = app.post(&on, json!({}), Some(&publisher.token)).await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = app.get("/api/publishers", None).await;
    assert_eq!(s, 200, "{body}");
    let mine = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["publisher_id"] == publisher.id.as_str())
        .unwrap_or_else(|| panic!("publisher listed: {body}"))
        .clone();
    assert_eq!(mine["book_count"], 1);
    assert!(mine["name"].is_string());

    let (s, shelf) = app
        .get(&format!("/api/publishers/{}/shelf", publisher.id), None)
        .await;
    assert_eq!(s, 200, "{shelf}");
    assert_eq!(shelf["data"]["publisher_id"], publisher.id.as_str());
    let b = &shelf["data"]["books"][0];
    assert_eq!(b["id"], id.as_str());
    assert_eq!(b["title"], book.title.as_str());
    assert!(
        b["coverImage"].as_str().unwrap().contains(id.as_str()),
        "{b}"
    );
    assert!(b["spineImage"].is_string(), "{b}");

    let (s, body) = app
        .post(
            &on.replace("=on", "=off"),
            json!({}),
            Some(&publisher.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (_, shelf) = app
        .get(&format!("/api/publishers/{}/shelf", publisher.id), None)
        .await;
    assert!(
        shelf["data"]["books"]
            .as_array()
            .is_none_or(|b| b.is_empty()),
        "{shelf}"
    );
}
