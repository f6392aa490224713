//! `POST /api/v1/ai_checker`: the advisory AI check of any text a signed-in user sends
//! (quire-analysis, offline; CPU work off the async threads).

use quire_proto::manuscript::v1 as pb;

use crate::AppState;
use crate::error::Result;
use crate::input;
use crate::uploads::report::AiCheck;

pub async fn check(state: &AppState, req: pb::CheckTextRequest) -> Result<pb::AiCheck> {
    input::text_to_check(&req.text, state.config.ai_check_max_chars)?;
    let _slot = state.cpu_slot().await?;
    let text = req.text;
    let check = tokio::task::spawn_blocking(move || quire_analysis::ai_check(&text)).await?;
    Ok(AiCheck::from(check).into())
}
