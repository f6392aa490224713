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
    from_known_address: bool,
}

// KEYS: per-address attempts, account attempts, account's next allowed time (ms), known
// address. ARGV: attempts per address, window, free attempts, max delay (s).
// Answers {1, known} when reserved, {0, seconds to wait} when refused.
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
local known = redis.call('EXISTS', KEYS[4])
if known == 0 then
  local next_at = tonumber(redis.call('GET', KEYS[3]) or '0')
  if now < next_at then
    return {0, math.ceil((next_at - now) / 1000)}
  end
  local n = redis.call('INCR', KEYS[2])
  redis.call('EXPIRE', KEYS[2], window)
  if n > free then
    local delay = math.min(2 ^ (n - free - 1), max_delay)
    redis.call('SET', KEYS[3], now + delay * 1000, 'PX', math.floor(delay * 1000))
  end
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('EXPIRE', KEYS[1], window)
end
return {1, known}
";

// KEYS: per-address attempts, known address, account attempts. ARGV: how long an
// address stays known, whether to give the account's reservation back (a count that
// expired meanwhile is left alone rather than made negative).
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

fn keys(email: &str, address: &str) -> [String; 4] {
    [
        format!("quire:auth:login:addr:{email}:{address}"),
        format!("quire:auth:login:acct:{email}"),
        format!("quire:auth:login:next:{email}"),
        format!("quire:auth:login:known:{email}:{address}"),
    ]
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
    let [per_address, account, next_at, known] = keys(email, address);
    let (reserved, value): (i64, i64) = RESERVE_SCRIPT
        .key(per_address)
        .key(account)
        .key(next_at)
        .key(known)
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
    Ok(Attempt {
        email: email.to_owned(),
        address: address.to_owned(),
        from_known_address: value == 1,
    })
}

/// The password was right: the address's count starts afresh, the address is known to
/// the account from now on, and a new address's reservation is given back.
pub async fn succeeded(redis: &mut redis::aio::ConnectionManager, attempt: Attempt) -> Result<()> {
    let [per_address, account, _, known] = keys(&attempt.email, &attempt.address);
    let () = SUCCEEDED_SCRIPT
        .key(per_address)
        .key(known)
        .key(account)
        .arg(KNOWN_FOR_SECS)
        .arg(i32::from(!attempt.from_known_address))
        .invoke_async(redis)
        .await?;
    Ok(())
}
