//! GetConversation: a conversation's messages, oldest first, for its owner alone.

use quire_kit::caller::Caller;
use quire_proto::chat::v1 as pb;

use crate::error::{ChatError, CommonErrors, Result};
use crate::{AppState, conversation, input, view};

pub async fn get(
    state: &AppState,
    caller: &Caller,
    req: pb::GetConversationRequest,
) -> Result<pb::Conversation> {
    let owner = input::uid(caller, &req.uid)?;
    let id = input::conversation_id(&req.conversation_id)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    if conversation::find(&mut conn, &id, owner).await?.is_none() {
        return Err(ChatError::not_found("Conversation"));
    }
    let rows = conversation::messages(&mut conn, &id).await?;
    Ok(pb::Conversation {
        conversation_id: id,
        messages: view::messages(state, &mut conn, &rows).await?,
    })
}
