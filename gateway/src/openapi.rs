//! The OpenAPI document of the REST surface (`/api/openapi.json`) and a page to browse
//! it (`/api/docs`). The frontend generates its request and reply types from it.

use actix_web::{HttpResponse, get};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes::accounts_dto::*;
use crate::routes::admin_audit_dto::*;
use crate::routes::admin_dashboard_dto::*;
use crate::routes::admin_users_dto::*;
use crate::routes::analytics_dto::*;
use crate::routes::books_dto::*;
use crate::routes::chat_dto::*;
use crate::routes::crowdfunding_dto::*;
use crate::routes::manuscripts_dto::*;
use crate::routes::manuscripts_why_dto::*;
use crate::routes::oidc_dto::*;
use crate::routes::pricing_dto::*;
use crate::routes::reading_dto::*;
use crate::routes::settings_dto::*;
use crate::routes::shop_admin_dto::*;
use crate::routes::wallet_dto::*;
use crate::routes::wallet_records_dto::*;
use crate::routes::{
    accounts, accounts_password, admin_audit, admin_dashboard, admin_users, analytics, books_edits,
    books_files, books_shop, chat, crowdfunding, manuscripts, oidc, pricing, reading, settings,
    shop_admin, wallet, wallet_records,
};

mod failures;
pub mod genre;

use failures::{Failures, OptionalBodies};
use genre::Genre;

struct Bearer;
impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        if let Some(components) = openapi.components.as_mut() {
            components.add_security_scheme(
                "bearer",
                SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
            );
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Quire API", description = "The REST surface of Quire, the online book platform. Every reply uses the envelope {code, success, message, data}; failures (the Failure schema) add detail, error and data.reason. A path below asked with a method it does not list answers 405 with the Failure envelope and an Allow header naming the methods it takes."),
    paths(
        accounts::send_verify_email, accounts::check_verify_code, accounts::register,
        accounts::login_nonce, accounts::login, accounts::refresh_token, accounts::logout,
        accounts::me, accounts::update_me, accounts::switch_role, accounts::add_role,
        accounts::roles, accounts::recent_users, accounts::list_users, accounts::create_user,
        accounts::invite_codes, accounts::invited_by_me, accounts_password::send_password_reset_code, accounts_password::send_sign_in_code,
        accounts_password::reset_password,
        oidc::oidc_config, oidc::start_oidc, oidc::finish_oidc,
        books_shop::get_books, books_shop::get_all_books, books_shop::get_bought_books,
        books_edits::update_book, books_edits::publish_book_status, books_shop::search,
        books_files::content, books_files::toc, books_files::cover, books_files::spine,
        chat::chat, chat::recbooks, chat::moods, chat::conversation,
        manuscripts::publish_entry, manuscripts::publish_entry_chapter, manuscripts::progress,
        manuscripts::list, manuscripts::get_one, manuscripts::ai_checker,
        reading::list_comments, reading::add_comment, reading::delete_comment, reading::rate_book,
        reading::list_bookmarks, reading::add_bookmark, reading::delete_bookmark,
        reading::get_progress, reading::set_progress, reading::list_favourites,
        reading::add_favourite, reading::remove_favourite, reading::history,
        shop_admin::publishers, shop_admin::shelf, shop_admin::admin_books, shop_admin::takedown,
        settings::settings, settings::admin_settings, settings::update_settings,
        admin_dashboard::dashboard, admin_audit::audit,
        admin_users::disable_user, admin_users::enable_user, admin_users::set_roles,
        wallet::open_wallet, wallet::wallet_info, wallet::recharge, wallet::consume, wallet::trade,
        wallet_records::all_wallets, wallet_records::top_up, wallet_records::top_up_records,
        wallet_records::get_trade_records, wallet_records::rewards,
        pricing::revenue_curve,
        crowdfunding::create_campaign, crowdfunding::get_campaign, crowdfunding::list_campaigns,
        crowdfunding::pledge, crowdfunding::close_campaign,
        analytics::sales,
    ),
    components(schemas(UserOut, TokenOut, AccessTokenOut, UserPageOut, InviteCodeOut, RoleOut, NonceOut,
        VerifySentOut, VerifiedOut, RegisterBody, LoginBody, WalletBody, ProfileBody, SwitchRoleBody,
        AddRoleBody, RefreshBody, LogoutBody, CreateUserBody, MailCodeBody, PasswordResetBody,
        PasswordResetOut,
        OidcConfigOut, OidcStartBody, OidcStartOut, OidcFinishBody,
        BookOut, BookPageOut, RatingOut, RatingBody, BookRatingOut, ShopForm, UpdateBookForm, PublishStatusOut, TagsIn, SearchBody,
        SearchHitOut, FacetsOut, SearchOut, TocEntryOut, FileBody,
        ChatBody, RecBooksBody, Intent, MessageType, RecBookOut, ChatMessageOut, ChatOut, MoodOut,
        MoodsOut, ConversationOut,
        Genre, PublishEntryForm, GenreScoreOut, AnalyzeDictOut, QualityPartOut, QaOut, AiSignalOut,
        ChapterAiOut, AiCheckOut, ChapterOut, ManuscriptOut, AiCheckerBody, UploadProgressOut,
        ManuscriptItemOut, ManuscriptPageOut, GenreEvidenceOut, GenrePassageOut, GenreFeatureOut,
        SummarySourceOut,
        CommentOut, CommentPageOut, CommentBody, DeletedOut, BookmarkOut, BookmarkBody, ProgressOut,
        ProgressBody, FavouriteOut, HistoryOut,
        PublisherOut, ShelfBookOut, ShelfOut, TakedownBody,
        SettingsOut, SettingsBody, RateLimitsBody, RateLimitsOut, AdminSettingsOut,
        DashboardOut, UserStatsOut, RoleCountsOut, BookStatsOut, SalesStatsOut, CampaignCountsOut,
        ChatStatsOut, DayCountOut, DayAmountOut, ServiceStatusOut, ConsumerLagOut,
        AuditEntryOut, AuditPageOut, RolesBody,
        WalletOut, WalletReplyOut, WalletPageOut, TopUpRecordOut, TopUpPageOut, RechargeOut, ConsumeOut,
        TradeOut, TradeRecordOut, TradePageOut, RewardOut, RewardPageOut, OpenBody, InfoBody,
        RechargeBody, ConsumeBody,
        RevenueCurveForm, RevenueCurveOut, SuggestionOut, CalibrationOut,
        CampaignStatus, CampaignOut, CampaignListOut, PledgeOut, CreateCampaignBody, PledgeBody,
        SalesReportOut, SalesTotalsOut, BookSalesOut, DaySalesOut, DayBookOut)),
    modifiers(&Bearer, &OptionalBodies, &Failures),
)]
pub struct ApiDoc;

/// The document as JSON (also written by `quire-gateway openapi`).
pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|_| "{}".into())
}

#[get("/api/openapi.json")]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(document())
}

/// Swagger UI from the web app's own bundle (`/platform/vendor/swagger-ui`), so the page
/// works without reaching any outside host.
#[get("/api/docs")]
pub async fn docs() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(DOCS_PAGE)
}

const DOCS_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quire API</title>
<link rel="stylesheet" href="/platform/vendor/swagger-ui/swagger-ui.css"></head>
<body><div id="ui"><p style="font-family:sans-serif">Loading the API reference… The raw document is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></div>
<script src="/platform/vendor/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/platform/vendor/swagger-ui/docs-init.js"></script>
</body></html>"#;
