//! RevenueCurve: the calibration follows the sales fed as events, only the writer, the
//! publisher and admins price a book, and a book the projection has not seen yet is priced
//! from catalog and its manuscript.

use quire_kit::events::{topics, types};
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::events::v1 as ev;
use quire_proto::manuscript::v1 as pb;
use quire_test_stack::{eventually, req, suffix};
use uuid::Uuid;

use crate::support::{Stack, book, book_uuid, reason, sale};

#[tokio::test(flavor = "multi_thread")]
async fn calibration_moves_with_the_sales_fed_as_events() {
    let s = Stack::start().await;
    let genre = format!("Genre {}", suffix());
    let me = s.writer.uuid();
    let mine = book(&genre, me, None, 499, 200);
    let others = [
        book(&genre, Uuid::now_v7(), None, 499, 200),
        book(&genre, Uuid::now_v7(), None, 499, 200),
    ];
    let mut fed = vec![s.publish_book(&mine).await];
    for b in &others {
        fed.push(s.publish_book(b).await);
    }
    s.until_applied(&fed).await;

    let before = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    let cal = before.calibration.clone().unwrap();
    assert_eq!((cal.genre_sales, cal.book_sales), (0, 0), "no sale yet");
    assert_eq!(cal.genre_books, 3);
    assert_eq!(cal.pages, 250);
    assert_eq!(before.t_values.len(), 50);
    assert_eq!(before.y_values.len(), 50);
    assert_eq!(before.current_price, 4.99);
    assert_eq!(before.horizon_days, 365);

    // 30 sales of the other books and 10 of mine at 4.99; 12 backers of a campaign, who
    // are no sale at the price; one trade announced twice (a relay's resend, same event
    // id) and once more under a new event id: all count once.
    let mut fed = Vec::new();
    let mut trades = Vec::new();
    for i in 0..30 {
        trades.push(sale(&others[i % 2], 499, 5, None));
    }
    for _ in 0..10 {
        trades.push(sale(&mine, 499, 5, None));
    }
    for t in &trades {
        fed.push(s.trade(t).await);
    }
    let campaign = Uuid::now_v7();
    for _ in 0..12 {
        fed.push(s.trade(&sale(&others[0], 1500, 3, Some(campaign))).await);
    }
    let again = &trades[0];
    let first = fed[0];
    s.produce_as(
        first,
        topics::TRADE,
        types::TRADE_COMPLETED,
        &again.trade_id,
        again,
    )
    .await;
    // Same key, so the same partition: once this one is applied, so is the replay.
    fed.push(s.trade(again).await);
    s.until_applied(&fed).await;

    let after = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    let cal_after = after.calibration.clone().unwrap();
    assert_eq!(
        cal_after.genre_sales, 40,
        "the genre's 40 sales, no backer, no replay"
    );
    assert_eq!(cal_after.book_sales, 10);
    assert!(cal_after.data_weight > cal.data_weight);
    assert!(
        after.current_expected_sales > before.current_expected_sales,
        "sales raise the expected sales at the same price: {} -> {}",
        before.current_expected_sales,
        after.current_expected_sales
    );
    assert!(cal_after.market_size > cal.market_size);

    // Buyers paying far more than the list price move the willingness to pay, and the
    // suggested price, up.
    let mut fed = Vec::new();
    for i in 0..40 {
        fed.push(s.trade(&sale(&others[i % 2], 1999, 2, None)).await);
    }
    s.until_applied(&fed).await;
    let dearer = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    let cal_dearer = dearer.calibration.clone().unwrap();
    assert_eq!(cal_dearer.genre_sales, 80);
    assert!(
        cal_dearer.median_wtp > cal_after.median_wtp,
        "median WTP {} -> {}",
        cal_after.median_wtp,
        cal_dearer.median_wtp
    );
    let (p1, p2) = (
        after.suggestion.as_ref().unwrap().price,
        dearer.suggestion.as_ref().unwrap().price,
    );
    assert!(p2 > p1, "suggested price {p1} -> {p2}");

    // A price change of the book is seen too (a newer snapshot; an older one is ignored).
    let mut repriced = mine.clone();
    repriced.price_cents = 799;
    repriced.version += 1;
    let mut stale = mine.clone();
    stale.price_cents = 100;
    stale.version -= 1;
    let updated = |b: &ev::BookSnapshot| ev::BookUpdated {
        book: Some(b.clone()),
    };
    let fed = vec![
        s.produce(
            topics::BOOK,
            types::BOOK_UPDATED,
            &mine.book_id,
            &updated(&repriced),
        )
        .await,
        s.produce(
            topics::BOOK,
            types::BOOK_UPDATED,
            &mine.book_id,
            &updated(&stale),
        )
        .await,
    ];
    s.until_applied(&fed).await;
    let repriced_curve = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    assert_eq!(repriced_curve.current_price, 7.99);
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_writer_the_publisher_and_admins_price_a_book() {
    let s = Stack::start().await;
    let genre = format!("Genre {}", suffix());
    let shelf = book(&genre, s.writer.uuid(), Some(s.publisher.uuid()), 350, 30);
    s.until_applied(&[s.publish_book(&shelf).await]).await;
    let id = book_uuid(&shelf);

    for who in [&s.writer, &s.publisher, &s.admin] {
        let curve = s.book_curve(who, id).await.unwrap();
        assert_eq!(curve.current_price, 3.5);
        assert_eq!(curve.t_values.len(), 50);
    }
    let refused = s.book_curve(&s.other_writer, id).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::NotFound);
    // A book nobody knows is answered the same way: the answer tells nothing.
    let unknown = s
        .book_curve(&s.other_writer, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), tonic::Code::NotFound);
    assert_eq!(refused.message(), unknown.message());

    // Without a book: the whole shop's curve, for anyone.
    let shop = s
        .curve(
            &s.other_writer,
            pb::RevenueCurveRequest {
                k: 0.9,
                n: 2,
                book_id: String::new(),
                cost_cents: 5000,
            },
        )
        .await
        .unwrap();
    assert_eq!(shop.t_values.len(), 2);
    assert_eq!(shop.current_price, 0.0);
    assert_eq!(shop.cost, 50.0);
    assert_eq!(shop.cost_line_values, vec![50.0, 50.0]);
    assert_eq!(shop.calibration.unwrap().book_sales, 0);

    let bad = |k: f64, n: u32, cost_cents: i64, book_id: &str| pb::RevenueCurveRequest {
        k,
        n,
        book_id: book_id.to_owned(),
        cost_cents,
    };
    let own = id.to_string();
    for (request, field) in [
        (bad(0.0, 50, 0, ""), "k"),
        (bad(1.01, 50, 0, &own), "k"),
        (bad(f64::NAN, 50, 0, ""), "k"),
        (bad(0.9, 1, 0, ""), "n"),
        (bad(0.9, 501, 0, &own), "n"),
        (bad(0.9, 50, -1, ""), "cost"),
        (bad(0.9, 50, 100_000_001, ""), "cost"),
        (bad(0.9, 50, 0, "not-a-uuid"), "book_id"),
    ] {
        let e = s.curve(&s.writer, request).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{field}: {e:?}");
        assert_eq!(reason(&e), format!("invalid_{field}"));
        assert!(e.message().contains(field), "{}", e.message());
    }
    // The edges are fine.
    let edge = s
        .curve(&s.writer, bad(1.0, 500, 100_000_000, &own))
        .await
        .unwrap();
    assert_eq!(edge.t_values.len(), 500);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_book_the_projection_has_not_seen_is_priced_from_catalog_and_its_manuscript() {
    let s = Stack::start().await;
    let seed = u64::from(Uuid::now_v7().as_fields().1);
    let text: String = (0..900)
        .map(|i| {
            format!(
                "Line {i} of tale {seed} follows pilot {} across harbour {} past beacon {}. ",
                (i * 11 + seed) % 101,
                (i * 17 + seed * 3) % 97,
                (i * 23 + seed * 7) % 89
            )
        })
        .collect();
    let report = s
        .client
        .clone()
        .publish_entry(req(
            pb::PublishEntryRequest {
                language: "english".into(),
                genre: "Poetry".into(),
                files: vec![pb::UploadedFile {
                    file_name: format!("tale-{seed}.txt"),
                    data: text.into_bytes(),
                }],
                ..Default::default()
            },
            Some(&s.writer),
        ))
        .await
        .expect("the upload goes through")
        .into_inner();
    let book_id = Uuid::parse_str(&report.book_id).unwrap();
    // Catalog announced the new book; the projection is put back to before it saw it, as
    // when its consumer lags behind the upload.
    let seen = eventually(60, || async {
        s.exec(&format!(
            "DELETE FROM shop_books WHERE book_id = '{book_id}'"
        ))
        .await
            == 1
    })
    .await;
    assert!(seen, "the projection saw the new book");

    let curve = s.book_curve(&s.writer, book_id).await.unwrap();
    let book = s
        .catalog
        .clone()
        .get_book(req(
            catalog_pb::GetBookRequest {
                book_id: book_id.to_string(),
            },
            Some(&s.writer),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(curve.current_price, book.price_cents as f64 / 100.0);
    let calibration = curve.calibration.unwrap();
    assert_eq!(u64::from(calibration.pages), (report.words / 300).max(1));
    assert_eq!(calibration.book_sales, 0);
    assert_eq!(curve.t_values.len(), 50);
    // Unlisted, it is not there for anyone but its writer, its publisher and admins.
    let hidden = s.book_curve(&s.other_writer, book_id).await.unwrap_err();
    assert_eq!(hidden.code(), tonic::Code::NotFound);
    s.book_curve(&s.admin, book_id).await.unwrap();
}
