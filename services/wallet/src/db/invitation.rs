use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::invitations;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = invitations)]
pub struct InvitationRow {
    pub invitee_id: Uuid,
    pub inviter_id: Uuid,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = invitations)]
pub struct NewInvitation {
    pub invitee_id: Uuid,
    pub inviter_id: Uuid,
}
