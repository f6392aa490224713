//! The wallet as the API shows it: a wallet read through the ledger (its pending credits
//! included) in the reply of every call that answers one (opening, reading, recharging,
//! spending, pledging).

use quire_proto::wallet::v1 as pb;

use crate::db::rfc3339;
use crate::db::wallet::WalletRow;

/// The wallet as the API shows it.
pub fn to_pb(row: &WalletRow, currency: &str) -> pb::Wallet {
    pb::Wallet {
        user_id: row.user_id.to_string(),
        balance_cents: row.balance_cents,
        currency: currency.to_owned(),
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
        recharged_cents: row.recharged_cents,
        earned_cents: row.earned_cents,
        spent_cents: row.spent_cents,
    }
}
