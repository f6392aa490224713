//! Statements that stay prepared on their connection. Diesel never caches the prepared
//! statement of an UPDATE, of `sql_query`, or of an INSERT from a derived `Insertable`
//! (it cannot tell that their SQL is the same each time), so each of them costs a Parse
//! round trip and a fresh plan on every call: on a money transaction of ten statements
//! that is ten extra round trips. A [`Prepared`] statement is fixed SQL text, so diesel
//! keeps it prepared per connection, keyed by its text and bind types, like a SELECT.
//!
//! ```text
//! prepared("UPDATE outbox SET published_at = now() WHERE seq = ANY($1)")
//!     .bind::<Array<BigInt>, _>(seqs)
//!     .execute(conn)
//! ```
//!
//! The text names `$1`, `$2`, ... once each, in that order (the binds are added in the same
//! order); it must not hold `$` otherwise (no dollar quoting). Rows of a RETURNING or a
//! SELECT load into `QueryableByName` structs, as with `sql_query`.

use std::marker::PhantomData;

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::{Error, QueryResult};
use diesel::serialize::ToSql;
use diesel::sql_types::{HasSqlType, Untyped};

/// A fixed SQL statement and its binds; see the module documentation.
#[must_use = "a statement does nothing until it is executed"]
pub struct Prepared<B = ()> {
    sql: &'static str,
    binds: B,
}

/// `sql` with no bind yet.
pub fn prepared(sql: &'static str) -> Prepared<()> {
    Prepared { sql, binds: () }
}

impl<B: Binds> Prepared<B> {
    /// Adds the value of the next placeholder, of SQL type `ST`.
    pub fn bind<ST, V>(self, value: V) -> Prepared<Bind<B, ST, V>>
    where
        Pg: HasSqlType<ST>,
        V: ToSql<ST, Pg>,
    {
        Prepared {
            sql: self.sql,
            binds: Bind {
                before: self.binds,
                value,
                sql_type: PhantomData,
            },
        }
    }
}

/// A bind value after the binds `before`.
pub struct Bind<B, ST, V> {
    before: B,
    value: V,
    // `fn() -> ST` keeps the statement Send and Sync whatever the marker type is.
    sql_type: PhantomData<fn() -> ST>,
}

/// The binds of a statement, in placeholder order.
pub trait Binds {
    const COUNT: usize;

    /// Pushes `pieces[0]`, then each bind followed by the piece after it.
    fn walk<'b>(
        &'b self,
        out: &mut AstPass<'_, 'b, Pg>,
        pieces: &[&'static str],
    ) -> QueryResult<()>;
}

impl Binds for () {
    const COUNT: usize = 0;

    fn walk<'b>(
        &'b self,
        out: &mut AstPass<'_, 'b, Pg>,
        pieces: &[&'static str],
    ) -> QueryResult<()> {
        out.push_sql(pieces[0]);
        Ok(())
    }
}

impl<B, ST, V> Binds for Bind<B, ST, V>
where
    B: Binds,
    Pg: HasSqlType<ST>,
    V: ToSql<ST, Pg>,
{
    const COUNT: usize = B::COUNT + 1;

    fn walk<'b>(
        &'b self,
        out: &mut AstPass<'_, 'b, Pg>,
        pieces: &[&'static str],
    ) -> QueryResult<()> {
        self.before.walk(out, pieces)?;
        out.push_bind_param::<ST, V>(&self.value)?;
        out.push_sql(pieces[Self::COUNT]);
        Ok(())
    }
}

/// `sql` cut around its placeholders `$1`, `$2`, ... (which must come in that order).
fn pieces(sql: &'static str) -> QueryResult<Vec<&'static str>> {
    let bytes = sql.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let number = sql[i + 1..i + 1 + digits].parse::<usize>().ok();
            if number != Some(out.len() + 1) {
                return Err(misuse(format!(
                    "placeholder {} of {sql:?} is not ${}",
                    out.len() + 1,
                    out.len() + 1
                )));
            }
            out.push(&sql[start..i]);
            i += 1 + digits;
            start = i;
        } else {
            i += 1;
        }
    }
    out.push(&sql[start..]);
    Ok(out)
}

fn misuse(message: String) -> Error {
    Error::QueryBuilderError(message.into())
}

impl<B: Binds> QueryFragment<Pg> for Prepared<B> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let pieces = pieces(self.sql)?;
        if pieces.len() != B::COUNT + 1 {
            return Err(misuse(format!(
                "{:?} has {} placeholders and {} binds",
                self.sql,
                pieces.len() - 1,
                B::COUNT
            )));
        }
        self.binds.walk(&mut out, &pieces)
    }
}

// No static id: diesel then keys its statement cache by the SQL text and the bind types.
impl<B> QueryId for Prepared<B> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<B: Binds> Query for Prepared<B> {
    type SqlType = Untyped;
}

#[cfg(test)]
mod tests {
    use diesel::sql_types::{BigInt, Text};

    use super::*;

    #[test]
    fn the_sql_is_the_text_with_its_binds_in_place() {
        let q = prepared("UPDATE t SET a = $1, b = $2 WHERE id = $3")
            .bind::<BigInt, _>(5i64)
            .bind::<Text, _>("x")
            .bind::<BigInt, _>(7i64);
        assert_eq!(
            diesel::debug_query::<Pg, _>(&q).to_string(),
            "UPDATE t SET a = $1, b = $2 WHERE id = $3 -- binds: [5, \"x\", 7]"
        );
        let none = prepared("SELECT 1");
        assert_eq!(
            diesel::debug_query::<Pg, _>(&none).to_string(),
            "SELECT 1 -- binds: []"
        );
    }

    #[test]
    fn placeholders_out_of_order_or_miscounted_are_refused() {
        assert!(pieces("SELECT $2, $1").is_err());
        assert!(pieces("SELECT $1, $1").is_err());
        assert!(pieces("SELECT $").is_err());
        assert_eq!(pieces("SELECT $1, $2").unwrap(), ["SELECT ", ", ", ""]);
        let q = prepared("SELECT $1, $2").bind::<BigInt, _>(1i64);
        let mut builder = diesel::pg::PgQueryBuilder::default();
        assert!(q.to_sql(&mut builder, &Pg).is_err());
    }
}
