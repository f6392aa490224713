//! The raw SQL side: the wallet's trade transaction written by hand with tokio-postgres,
//! on a copy of the wallet schema made by the wallet's own migrations.

use prost::Message as _;
use quire_kit::events::{topics, types};
use quire_proto::events::v1::TradeCompleted;
use uuid::Uuid;

use super::{PRICE_CENTS, RAW, SHARE_PERCENT};
use crate::support::pg;

/// One client of the raw SQL side: its connection and the statements of the wallet's trade
/// transaction. Ids and times go in as text (the bench's tokio-postgres has no uuid or
/// chrono support compiled in); the server casts them.
pub struct RawClient {
    db: tokio_postgres::Client,
    trade: tokio_postgres::Statement,
    transfer: tokio_postgres::Statement,
    lock: tokio_postgres::Statement,
    debit: tokio_postgres::Statement,
    credit: tokio_postgres::Statement,
    entries: tokio_postgres::Statement,
    outbox: tokio_postgres::Statement,
}

impl RawClient {
    pub async fn connect(url: &str) -> Self {
        let db = pg(url).await.unwrap();
        db.batch_execute(&format!("SET search_path TO {RAW}"))
            .await
            .unwrap();
        let prepare = |sql: &'static str| {
            let db = &db;
            async move { db.prepare(sql).await.unwrap() }
        };
        let trade = prepare(
            "INSERT INTO trades (id, buyer_uid, book_id, seller_uid, title, price_cents, \
               seller_cents, platform_cents, transfer_id, created_at) \
             VALUES ($1::text::uuid, $2::text::uuid, $3::text::uuid, $4::text::uuid, $5, $6, $7, \
               $8, $9::text::uuid, $10::text::timestamptz) \
             ON CONFLICT (buyer_uid, book_id) DO NOTHING",
        )
        .await;
        let transfer =
            prepare("INSERT INTO transfers (id, kind, memo) VALUES ($1::text::uuid, $2, $3)").await;
        // As the wallet's ledger writes them: the debit locks the buyer's wallet, then takes
        // its pending credits in with the debit; the writer's share is a pending credit (see
        // quire_wallet::ledger).
        let lock =
            prepare("SELECT user_id FROM wallets WHERE user_id = $1::text::uuid FOR NO KEY UPDATE")
                .await;
        let debit = prepare(
            "WITH folded AS (DELETE FROM pending_credits WHERE user_id = $2::text::uuid \
               RETURNING amount_cents), \
             f AS (SELECT COALESCE(sum(amount_cents), 0)::bigint AS cents FROM folded) \
             UPDATE wallets SET balance_cents = balance_cents + f.cents + $1, \
               earned_cents = earned_cents + f.cents, spent_cents = spent_cents - $1, \
               updated_at = CURRENT_TIMESTAMP FROM f WHERE user_id = $2::text::uuid \
             RETURNING balance_cents",
        )
        .await;
        let credit = prepare(
            "INSERT INTO pending_credits (user_id, transfer_id, amount_cents) \
             SELECT user_id, $3::text::uuid, $1 FROM wallets WHERE user_id = $2::text::uuid",
        )
        .await;
        let entries = prepare(
            "INSERT INTO entries (transfer_id, account_id, amount_cents) VALUES \
             ($1::text::uuid, $2::text::uuid, $3), ($1::text::uuid, $4::text::uuid, $5), \
             ($1::text::uuid, $6::text::uuid, $7)",
        )
        .await;
        let outbox = prepare(
            "INSERT INTO outbox (event_id, topic, event_key, event_type, source, payload, \
               traceparent) VALUES ($1::text::uuid, $2, $3, $4, $5, $6, $7)",
        )
        .await;
        Self {
            db,
            trade,
            transfer,
            lock,
            debit,
            credit,
            entries,
            outbox,
        }
    }

    /// The wallet's trade transaction, in its order: the trade row, the outbox row, the
    /// transfer, the three entries, the buyer's debit and the seller's pending credit in
    /// ascending id order, then COMMIT, which runs the deferred checks.
    pub async fn trade(&self, buyer: Uuid, book: Uuid, seller: Uuid, title: &str) {
        let (seller_cents, platform_cents) =
            quire_wallet::trades::split(PRICE_CENTS, SHARE_PERCENT);
        let (id, transfer) = (Uuid::now_v7(), Uuid::now_v7());
        let created_at = chrono::Utc::now();
        let db = &self.db;
        db.batch_execute("BEGIN").await.unwrap();
        let inserted = db
            .execute(
                &self.trade,
                &[
                    &id.to_string(),
                    &buyer.to_string(),
                    &book.to_string(),
                    &seller.to_string(),
                    &title,
                    &PRICE_CENTS,
                    &seller_cents,
                    &platform_cents,
                    &transfer.to_string(),
                    &created_at.to_rfc3339(),
                ],
            )
            .await
            .unwrap();
        assert_eq!(inserted, 1);
        let event = TradeCompleted {
            trade_id: id.to_string(),
            buyer_uid: buyer.to_string(),
            book_id: book.to_string(),
            seller_uid: seller.to_string(),
            price_cents: PRICE_CENTS,
            seller_cents,
            platform_cents,
            completed_at: quire_wallet::db::rfc3339(created_at),
            campaign_id: String::new(),
        };
        let traceparent = format!(
            "00-{}-{}-01",
            Uuid::new_v4().simple(),
            &Uuid::new_v4().simple().to_string()[..16]
        );
        db.execute(
            &self.outbox,
            &[
                &Uuid::now_v7().to_string(),
                &topics::TRADE,
                &id.to_string(),
                &types::TRADE_COMPLETED,
                &quire_wallet::SOURCE,
                &event.encode_to_vec(),
                &traceparent,
            ],
        )
        .await
        .unwrap();
        db.execute(&self.transfer, &[&transfer.to_string(), &"trade", &title])
            .await
            .unwrap();
        let platform = quire_wallet::ledger::Account::Platform.id();
        let mut postings = [
            (buyer, -PRICE_CENTS),
            (seller, seller_cents),
            (platform, platform_cents),
        ];
        postings.sort_by_key(|p| p.0);
        let [a, b, c] = postings.map(|(account, cents)| (account.to_string(), cents));
        db.execute(
            &self.entries,
            &[&transfer.to_string(), &a.0, &a.1, &b.0, &b.1, &c.0, &c.1],
        )
        .await
        .unwrap();
        let (buyer_id, seller_id) = (buyer.to_string(), seller.to_string());
        let transfer_id = transfer.to_string();
        let debit = async {
            db.execute(&self.lock, &[&buyer_id]).await.unwrap();
            db.query_one(&self.debit, &[&-PRICE_CENTS, &buyer_id])
                .await
                .unwrap();
        };
        let credit = async {
            let written = db
                .execute(&self.credit, &[&seller_cents, &seller_id, &transfer_id])
                .await
                .unwrap();
            assert_eq!(written, 1);
        };
        // One at a time, in ascending id order.
        if buyer < seller {
            debit.await;
            credit.await;
        } else {
            credit.await;
            debit.await;
        }
        db.batch_execute("COMMIT").await.unwrap();
    }
}
