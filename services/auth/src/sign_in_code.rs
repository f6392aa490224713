//! Signing in with a code mailed to the account's address, for when the guessing limits
//! keep a new address waiting (a stranger guessing from address after address paces every
//! new one): the code proves the mailbox, so with it the password is checked at once. A
//! code opens at most `verification::MAX_ATTEMPTS` tries, wrong codes and wrong passwords
//! alike, and is used up by the sign-in it opens (`sessions::login_email`).

use quire_proto::auth::v1 as pb;

use crate::error::Result;
use crate::verification::Purpose;
use crate::{AppState, account_mail};

const SUBJECT: &str = "Your Quire sign-in code";

/// Issues a sign-in code for `email` and mails it when an account uses that address.
pub async fn request_code(
    state: &AppState,
    req: pb::SendSignInCodeRequest,
) -> Result<pb::SendSignInCodeResponse> {
    let sent = account_mail::mail_code(state, Purpose::SignIn, &req.email, SUBJECT, |code| {
        format!(
            "Someone asked to sign in to your Quire account from a new place.\n\nYour verification code is {code}\n\nEnter it with your password; it is valid for 10 minutes. If it was not you, ignore this mail: without your password the code opens nothing. If someone has your password, reset it.\n"
        )
    })
    .await?;
    metrics::counter!("quire_auth_sign_in_codes_total").increment(1);
    Ok(pb::SendSignInCodeResponse {
        resend_after_secs: sent.resend_after_secs,
        expires_in_secs: sent.expires_in_secs,
    })
}
