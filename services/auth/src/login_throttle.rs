//! How many password guesses an account can take, and from where.
//!
//! Every attempt is reserved in Redis, atomically, before its password is checked, so a
//! hundred guesses sent at once are counted as a hundred, not as the few that had failed
//! by the time each one looked. Two limits hold together:
//!
//! - per account and address: `attempts_per_address` attempts in the window; past that
//!   this address waits for the window to end. A success starts its count afresh.
//! - per account, from addresses that have not signed in to it before: the first
//!   `free_attempts` go through at once, then each further one must wait 1, 2, 4, ... up
//!   to `max_delay_secs` seconds after the previous one. Guessing from many addresses is
//!   bounded by that rate; the owner, from an address they signed in from within the
//!   last 30 days, is never slowed by it, so a stranger cannot lock them out.
//!
//! That pace is kept twice, apart: once for an address's first try at the account in the
//! window, once for the tries after it. A stranger who guesses again and again (however
//! slowly) from the addresses they have slows only further tries, so the owner's first
//! try from a new phone or network is not kept waiting by them; fresh addresses for every
//! guess still meet the first tries' pace; past it the owner asks for a sign-in code by
//! mail (`sign_in_code`), which passes every limit here ([`vouched`]).
//!
//! A success from a new address gives its reservation back. The limits say nothing on
//! whether the account exists: an unknown e-mail is throttled the same way.

use std::sync::LazyLock;

use redis::Script;

use crate::error::{AuthError, Result};

const KNOWN_FOR_SECS: u64 = 30 * 24 * 3600;

/// The limits (see the module's doc).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub attempts_per_address: u32,
    pub free_attempts: u32,
    pub max_delay_secs: u32,
    pub window_secs: u32,
}

/// A reserved attempt: report how it ended with [`succeeded`].
#[derive(Debug)]
pub struct Attempt {
    email: String,
    address: String,
    pace: Pace,
}

/// Which pace an attempt was counted against.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pace {
    /// From an address the owner signed in from: none.
    Known,
    /// An address's first try at the account in the window.
    FirstTry,
    /// A further try from an address that has tried already.
    Retry,
}

// KEYS: per-address attempts, first tries' count, first tries' next allowed time (ms),
// known address, retries' count, retries' next allowed time (ms). ARGV: attempts per
// address, window, free attempts, max delay (s).
// Answers {1, pace} when reserved (0 known, 1 first try, 2 retry), {0, seconds to wait}
// when refused.
const RESERVE: &str = r"
local per_address = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local free = tonumber(ARGV[3])
local max_delay = tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tried = tonumber(redis.call('GET', KEYS[1]) or '0')
if tried >= per_address then
  local ttl = redis.call('TTL', KEYS[1])
  if ttl < 1 then ttl = window end
  return {0, ttl}
end
local pace = 0
if redis.call('EXISTS', KEYS[4]) == 0 then
  local count_key, next_key = KEYS[2], KEYS[3]
  pace = 1
  if tried > 0 then
    count_key, next_key = KEYS[5], KEYS[6]
    pace = 2
  end
  local next_at = tonumber(redis.call('GET', next_key) or '0')
  if now < next_at then
    return {0, math.ceil((next_at - now) / 1000)}
  end
  local n = redis.call('INCR', count_key)
  redis.call('EXPIRE', count_key, window)
  if n > free then
    local delay = math.min(2 ^ (n - free - 1), max_delay)
    redis.call('SET', next_key, now + delay * 1000, 'PX', math.floor(delay * 1000))
  end
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('EXPIRE', KEYS[1], window)
end
return {1, pace}
";

// KEYS: per-address attempts, known address, the count of the pace the attempt was
// counted against. ARGV: how long an address stays known, whether to give that
// reservation back (a count that expired meanwhile is left alone rather than made
// negative).
const SUCCEEDED: &str = r"
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], 1, 'EX', tonumber(ARGV[1]))
if ARGV[2] == '1' and tonumber(redis.call('GET', KEYS[3]) or '0') > 0 then
  redis.call('DECR', KEYS[3])
end
";

// Hashed once: redis sends the hash and loads the script body only when the server lacks it.
static RESERVE_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(RESERVE));
static SUCCEEDED_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(SUCCEEDED));

/// The keys of an account and address: per-address attempts, known address, and for each
/// pace (first tries, retries) its count and its next allowed time.
struct Keys {
    per_address: String,
    known: String,
    first_tries: String,
    first_tries_next: String,
    retries: String,
    retries_next: String,
}

fn keys(email: &str, address: &str) -> Keys {
    Keys {
        per_address: format!("quire:auth:login:addr:{email}:{address}"),
        known: format!("quire:auth:login:known:{email}:{address}"),
        first_tries: format!("quire:auth:login:acct:{email}"),
        first_tries_next: format!("quire:auth:login:next:{email}"),
        retries: format!("quire:auth:login:retry:{email}"),
        retries_next: format!("quire:auth:login:retry-next:{email}"),
    }
}

/// Reserves one attempt at `email` from `address`, or refuses it with the seconds to wait.
pub async fn reserve(
    redis: &mut redis::aio::ConnectionManager,
    limits: Limits,
    email: &str,
    address: &str,
) -> Result<Attempt> {
    let address = if address.is_empty() {
        "unknown"
    } else {
        address
    };
    let keys = keys(email, address);
    let (reserved, value): (i64, i64) = RESERVE_SCRIPT
        .key(keys.per_address)
        .key(keys.first_tries)
        .key(keys.first_tries_next)
        .key(keys.known)
        .key(keys.retries)
        .key(keys.retries_next)
        .arg(limits.attempts_per_address)
        .arg(limits.window_secs)
        .arg(limits.free_attempts)
        .arg(limits.max_delay_secs.max(1))
        .invoke_async(redis)
        .await?;
    if reserved == 0 {
        metrics::counter!("quire_auth_logins_total", "result" => "throttled").increment(1);
        return Err(AuthError::LoginLocked(value.max(1) as u64));
    }
    let pace = match value {
        1 => Pace::FirstTry,
        2 => Pace::Retry,
        _ => Pace::Known,
    };
    Ok(Attempt {
        email: email.to_owned(),
        address: address.to_owned(),
        pace,
    })
}

/// An attempt that a mailed sign-in code vouches for: no limit here holds it back (the
/// code's own tries bound it), and like any success it makes its address known.
pub fn vouched(email: &str, address: &str) -> Attempt {
    Attempt {
        email: email.to_owned(),
        address: if address.is_empty() {
            "unknown"
        } else {
            address
        }
        .to_owned(),
        pace: Pace::Known,
    }
}

/// The password was right: the address's count starts afresh, the address is known to
/// the account from now on, and a new address's reservation is given back.
pub async fn succeeded(redis: &mut redis::aio::ConnectionManager, attempt: Attempt) -> Result<()> {
    let keys = keys(&attempt.email, &attempt.address);
    let counted = match attempt.pace {
        Pace::Retry => keys.retries,
        Pace::FirstTry | Pace::Known => keys.first_tries,
    };
    let () = SUCCEEDED_SCRIPT
        .key(keys.per_address)
        .key(keys.known)
        .key(counted)
        .arg(KNOWN_FOR_SECS)
        .arg(i32::from(attempt.pace != Pace::Known))
        .invoke_async(redis)
        .await?;
    Ok(())
}
