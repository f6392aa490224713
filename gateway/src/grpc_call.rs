//! The outgoing side of every handler: a gRPC request carrying the caller's identity and
//! the trace context, with the deadline of an ordinary call; a money-moving write also
//! carries its idempotency key, so that it may go to another replica.

use std::time::Duration;

use quire_kit::caller::Caller;
use quire_kit::grpc::outgoing;
use quire_proto::wallet::v1 as wallet;

/// A call that reads or writes a few rows; file transfers set their own.
pub const DEADLINE: Duration = Duration::from_secs(10);

pub fn call<T>(message: T, caller: Option<&Caller>) -> tonic::Request<T> {
    outgoing(message, caller, DEADLINE)
}

/// A wallet request the wallet replays by its `idempotency_key`.
pub trait Keyed {
    fn idempotency_key(&self) -> &str;
}

macro_rules! keyed {
    ($($request:ty),* $(,)?) => {
        $(impl Keyed for $request {
            fn idempotency_key(&self) -> &str {
                &self.idempotency_key
            }
        })*
    };
}

keyed!(
    wallet::OpenWalletRequest,
    wallet::RechargeRequest,
    wallet::ConsumeRequest,
    wallet::TradeRequest,
    wallet::CreateCampaignRequest,
    wallet::PledgeRequest,
    wallet::TopUpRequest,
);

/// [`call`] for a money-moving write: with a key, a call cut off by a wallet replica's
/// death goes again to another replica, and the wallet answers the key's first answer
/// (quire_kit::upstream::REPLAY_KEY).
pub fn call_keyed<T: Keyed>(message: T, caller: Option<&Caller>) -> tonic::Request<T> {
    let key = message.idempotency_key().to_owned();
    let mut request = call(message, caller);
    quire_kit::upstream::replayed_by(&mut request, &key);
    request
}
