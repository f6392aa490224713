//! The double-entry ledger: every movement of money is one transfer whose entries sum to
//! zero across accounts. User accounts (wallets) carry a running balance that the
//! database keeps from going below zero; system accounts and campaigns' escrow accounts
//! carry none (their balance is the sum of their entries), so concurrent trades never
//! queue on a shared platform row, nor concurrent pledges on a campaign's.
//!
//! Nor on a popular writer's row: a writer's share of a sale or of a funded campaign, an
//! invite reward and a failed campaign's refunds are *pending credits* (rows of their own)
//! that the folder ([`fold_pending`], run by `crate::folder`) adds to the wallet row in
//! batches. A wallet holds its row plus its pending credits (the `wallet_balances` view,
//! which every read uses), and each statement that moves a wallet's balance takes that
//! wallet's pending credits in first, so a debit is checked against all the money there
//! is. A credit cannot take a balance below zero, which is why it can wait.
//!
//! Deadlock freedom: settling a transfer locks the user wallets whose balance it moves in
//! ascending account id order, whatever order its postings came in, each with a
//! `SELECT ... FOR NO KEY UPDATE` of its own; only the statement after it takes that
//! wallet's pending credits in and updates the row. The folder also locks wallets before
//! it takes their pending credits: its whole batch, in ascending id order, in one
//! statement. Writing a pending credit locks no wallet (`pending_credits` has no foreign
//! key to `wallets`). Entries reference system accounts only by key (foreign-key checks
//! take KEY SHARE locks, which never wait on one another; the check of an entry's account
//! is deferred to commit), so the platform account is no queue.
//!
//! A transfer runs inside the caller's transaction: the transfer, its entries and whatever
//! the caller records with it (a trade, its event, the idempotency answer) commit together
//! or not at all. The database checks at commit that the entries of each transfer sum to
//! zero. The folder runs transactions of its own.
//!
//! The parts: what a transfer is made of ([`Account`], [`Posting`], [`TransferKind`]);
//! opening wallets and reading balances; recording a transfer and its entries; settling
//! it (moving balances or writing pending credits); folding pending credits.

mod balances;
mod fold;
mod posting;
mod settle;
mod transfer;

pub use balances::{balance, open, wallet};
pub use fold::fold_pending;
pub use posting::{Account, Posting, TransferKind};
pub use settle::{Moved, Recorded};
pub use transfer::{record, record_statements, transfer};
