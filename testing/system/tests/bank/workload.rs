//! The bank's day: every user is a client doing one call at a time (recharge, spend, buy a
//! book, back a crowd-funding campaign, now and then send an answered key again or buy a
//! book it owns with a new key; a writer now and then closes one of their campaigns), an
//! admin tops wallets up, and all of them run at once until enough calls were answered and
//! the chaos is over.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::client::{Answer, Bank, Op};
use super::stack::{Book, Campaign, User};
use super::tally::Tally;

/// Who takes part and what they can buy.
pub struct World {
    pub bank: Bank,
    pub users: Vec<User>,
    pub shop: Vec<Book>,
    /// Open when the day starts; closed by their writers during it or by the admin after.
    pub campaigns: Vec<Campaign>,
    pub admin: User,
    /// First sends with a definite answer, by everyone.
    pub answered: AtomicU64,
    pub chaos_over: AtomicBool,
    /// A client failed: the others stop too.
    pub abort: AtomicBool,
    pub target: u64,
    pub deadline: Instant,
}

impl World {
    fn go_on(&self) -> bool {
        let enough = self.answered.load(Ordering::SeqCst) >= self.target
            && self.chaos_over.load(Ordering::SeqCst);
        !enough && !self.abort.load(Ordering::SeqCst) && Instant::now() < self.deadline
    }
}

/// One client: `who` with its own keys (`prefix-n`).
struct Client<'w> {
    world: &'w World,
    who: &'w User,
    prefix: String,
    sent: Vec<(String, Op)>,
    tally: Tally,
    rng: StdRng,
}

impl Drop for Client<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.world.abort.store(true, Ordering::SeqCst);
        }
    }
}

impl Client<'_> {
    async fn send(&mut self, op: Op) {
        let key = format!("{}-{}", self.prefix, self.sent.len());
        let answer = self.world.bank.call(self.who, &key, &op).await;
        self.tally.record(self.who.id, &key, &op, &answer);
        self.tally.calls += 1;
        self.tally.refused += u64::from(matches!(answer, Answer::Refused));
        self.world.answered.fetch_add(1, Ordering::SeqCst);
        self.sent.push((key, op));
    }

    /// Sends an answered key again, as a client that lost the answer would.
    async fn resend(&mut self) {
        let (key, op) = self.sent[self.rng.gen_range(0..self.sent.len())].clone();
        let answer = self.world.bank.call(self.who, &key, &op).await;
        // The tally checks that the key answers as it did the first time.
        self.tally.record(self.who.id, &key, &op, &answer);
        self.tally.resends += 1;
    }
}

/// Of every hundred calls, how many send an answered key again.
const RESENDS_PERCENT: u32 = 8;

/// `who`'s day, one call at a time: `pick` chooses the next call (none: skip a turn).
async fn day(
    world: &World,
    who: &User,
    prefix: String,
    seed: u64,
    mut pick: impl FnMut(&mut StdRng, &mut Tally) -> Option<Op>,
) -> Tally {
    let mut client = Client {
        world,
        who,
        prefix,
        sent: Vec::new(),
        tally: Tally::default(),
        rng: StdRng::seed_from_u64(seed),
    };
    while world.go_on() {
        if client.rng.gen_range(0..100) < RESENDS_PERCENT && !client.sent.is_empty() {
            client.resend().await;
        } else if let Some(op) = pick(&mut client.rng, &mut client.tally) {
            client.send(op).await;
        }
    }
    std::mem::take(&mut client.tally)
}

/// Of every thousand calls of a writer, how many close one of their campaigns.
const CLOSES_PER_MILLE: u32 = 15;

/// A user's day: recharges, spending, books bought from the others, pledges; a writer's
/// closes of their own campaigns.
pub async fn customer(world: Arc<World>, me: usize, seed: u64) -> Tally {
    let who = &world.users[me];
    day(&world, who, format!("bank-{me}"), seed, |rng, tally| {
        let mine: Vec<&Campaign> = world
            .campaigns
            .iter()
            .filter(|c| c.writer == who.id)
            .collect();
        if !mine.is_empty() && rng.gen_range(0..1000) < CLOSES_PER_MILLE {
            let campaign = mine[rng.gen_range(0..mine.len())].clone();
            return Some(Op::Close { campaign });
        }
        Some(match rng.gen_range(0..100) {
            0..=31 => Op::Recharge {
                cents: rng.gen_range(100..=2500),
            },
            32..=54 => Op::Consume {
                cents: rng.gen_range(50..=1200),
            },
            55..=66 => {
                let campaign = world.campaigns[rng.gen_range(0..world.campaigns.len())].clone();
                if campaign.writer == who.id {
                    return None;
                }
                Op::Pledge {
                    campaign,
                    cents: rng.gen_range(50..=800),
                }
            }
            _ => {
                let book = world.shop[rng.gen_range(0..world.shop.len())].clone();
                if book.seller == who.id {
                    return None;
                }
                tally.rebuys += u64::from(tally.trades.contains_key(&(who.id, book.id)));
                Op::Trade { book }
            }
        })
    })
    .await
}

/// The admin's day: top-ups to anyone.
pub async fn admin(world: Arc<World>, seed: u64) -> Tally {
    let prefix = "bank-admin".to_owned();
    day(&world, &world.admin, prefix, seed, |rng, _| {
        Some(Op::TopUp {
            user: world.users[rng.gen_range(0..world.users.len())].id,
            cents: rng.gen_range(100..=3000),
        })
    })
    .await
}
