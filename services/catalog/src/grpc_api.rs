//! The gRPC face of the catalog: each method reads its request, calls the domain module
//! that does the work, and converts the answer. No rule lives here.

use std::pin::Pin;

use futures::Stream;
use quire_kit::KitError;
use quire_kit::caller::Caller;
use quire_kit::db::PgConn;
use quire_proto::catalog::v1 as pb;
use quire_proto::catalog::v1::catalog_service_server::CatalogService;
use tonic::{Request, Response, Status};

use crate::books::{create, query, update, view};
use crate::error::CatalogError;
use crate::{
    AppState, book_stats, bookmarks, comments, covers, favourites, history, listing, progress,
    ratings, reading, search, settings, shelves,
};

pub struct CatalogApi {
    pub state: AppState,
}

type Reply<T> = Result<Response<T>, Status>;

fn ok<T>(value: T) -> Reply<T> {
    Ok(Response::new(value))
}

/// The verified caller, when the request carried a token.
fn caller<T>(req: &Request<T>) -> Option<Caller> {
    req.extensions().get::<Caller>().cloned()
}

impl CatalogApi {
    async fn conn(&self) -> Result<PgConn, Status> {
        quire_kit::db::conn(&self.state.pool)
            .await
            .map_err(|e| CatalogError::from(e).into())
    }
}

fn list(books: Vec<pb::Book>) -> pb::BookList {
    pb::BookList { books }
}

#[tonic::async_trait]
impl CatalogService for CatalogApi {
    async fn create_book(&self, req: Request<pb::CreateBookRequest>) -> Reply<pb::Book> {
        let who = caller(&req);
        let row = create::create(&self.state, who.as_ref(), req.into_inner()).await?;
        let mut conn = self.conn().await?;
        ok(view::book(&mut conn, who.as_ref(), row).await?)
    }

    async fn get_book(&self, req: Request<pb::GetBookRequest>) -> Reply<pb::Book> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(query::get_book(&mut conn, who.as_ref(), &req.get_ref().book_id).await?)
    }

    async fn get_book_for_sale(
        &self,
        req: Request<pb::GetBookForSaleRequest>,
    ) -> Reply<pb::BookForSale> {
        let mut conn = self.conn().await?;
        ok(query::for_sale(&mut conn, &req.get_ref().book_id).await?)
    }

    async fn get_books(&self, req: Request<pb::GetBooksRequest>) -> Reply<pb::BookList> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(list(
            query::get_books(&mut conn, who.as_ref(), req.get_ref()).await?,
        ))
    }

    async fn list_books(&self, req: Request<pb::ListBooksRequest>) -> Reply<pb::BookPage> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(query::list_books(&mut conn, who.as_ref(), req.get_ref()).await?)
    }

    async fn get_bought_books(
        &self,
        req: Request<pb::GetBoughtBooksRequest>,
    ) -> Reply<pb::BookList> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(list(
            query::bought_books(&mut conn, who.as_ref(), &req.get_ref().uid).await?,
        ))
    }

    async fn update_book(&self, req: Request<pb::UpdateBookRequest>) -> Reply<pb::Book> {
        let who = caller(&req);
        let row = update::update(&self.state, who.as_ref(), req.into_inner()).await?;
        let mut conn = self.conn().await?;
        ok(view::book(&mut conn, who.as_ref(), row).await?)
    }

    async fn set_publish_status(
        &self,
        req: Request<pb::SetPublishStatusRequest>,
    ) -> Reply<pb::PublishStatus> {
        let who = caller(&req).ok_or(CatalogError::Kit(KitError::Unauthenticated))?;
        let r = req.get_ref();
        let mut conn = self.conn().await?;
        ok(listing::set_publish_status(&mut conn, &who, &r.user_id, &r.book_id, r.on).await?)
    }

    async fn search(&self, req: Request<pb::SearchRequest>) -> Reply<pb::SearchResponse> {
        let who = caller(&req);
        ok(search::search(&self.state, who.as_ref(), req.get_ref()).await?)
    }

    type GetContentStream =
        Pin<Box<dyn Stream<Item = Result<pb::ContentChunk, Status>> + Send + 'static>>;

    async fn get_content(
        &self,
        req: Request<pb::GetContentRequest>,
    ) -> Reply<Self::GetContentStream> {
        let who = caller(&req);
        let (meta, data) = reading::content(&self.state, who.as_ref(), req.get_ref()).await?;
        let chunks = reading::chunks(meta, data);
        ok(Box::pin(futures::stream::iter(chunks.into_iter().map(Ok))))
    }

    async fn get_toc(&self, req: Request<pb::GetTocRequest>) -> Reply<pb::Toc> {
        let who = caller(&req);
        ok(reading::toc(&self.state, who.as_ref(), req.get_ref()).await?)
    }

    async fn get_cover(&self, req: Request<pb::GetCoverRequest>) -> Reply<pb::Image> {
        let who = caller(&req);
        ok(covers::get_cover(&self.state, who.as_ref(), req.get_ref()).await?)
    }

    async fn list_comments(&self, req: Request<pb::ListCommentsRequest>) -> Reply<pb::CommentPage> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(comments::list(&mut conn, who.as_ref(), req.get_ref()).await?)
    }

    async fn add_comment(&self, req: Request<pb::AddCommentRequest>) -> Reply<pb::Comment> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(comments::add(&mut conn, who.as_ref(), req.get_ref()).await?)
    }

    async fn delete_comment(&self, req: Request<pb::DeleteCommentRequest>) -> Reply<pb::Empty> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        comments::delete(&mut conn, who.as_ref(), &req.get_ref().comment_id).await?;
        ok(pb::Empty {})
    }

    async fn rate_book(&self, req: Request<pb::RateBookRequest>) -> Reply<pb::BookRating> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(ratings::rate(&mut conn, &self.state.wallet, who.as_ref(), req.get_ref()).await?)
    }

    async fn list_bookmarks(
        &self,
        req: Request<pb::ListBookmarksRequest>,
    ) -> Reply<pb::BookmarkList> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(bookmarks::list(&mut conn, who.as_ref(), &req.get_ref().book_id).await?)
    }

    async fn add_bookmark(&self, req: Request<pb::AddBookmarkRequest>) -> Reply<pb::Bookmark> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(bookmarks::add(&mut conn, who.as_ref(), req.get_ref()).await?)
    }

    async fn delete_bookmark(&self, req: Request<pb::DeleteBookmarkRequest>) -> Reply<pb::Empty> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        bookmarks::delete(&mut conn, who.as_ref(), &req.get_ref().bookmark_id).await?;
        ok(pb::Empty {})
    }

    async fn get_progress(&self, req: Request<pb::GetProgressRequest>) -> Reply<pb::Progress> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(progress::get(&mut conn, who.as_ref(), &req.get_ref().book_id).await?)
    }

    async fn set_progress(&self, req: Request<pb::SetProgressRequest>) -> Reply<pb::Progress> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(progress::set(&mut conn, who.as_ref(), req.get_ref()).await?)
    }

    async fn list_favourites(
        &self,
        req: Request<pb::ListFavouritesRequest>,
    ) -> Reply<pb::BookList> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(list(favourites::list(&mut conn, who.as_ref()).await?))
    }

    async fn add_favourite(&self, req: Request<pb::FavouriteRequest>) -> Reply<pb::Empty> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        favourites::add(&mut conn, who.as_ref(), &req.get_ref().book_id).await?;
        ok(pb::Empty {})
    }

    async fn remove_favourite(&self, req: Request<pb::FavouriteRequest>) -> Reply<pb::Empty> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        favourites::remove(&mut conn, who.as_ref(), &req.get_ref().book_id).await?;
        ok(pb::Empty {})
    }

    async fn list_history(&self, req: Request<pb::ListHistoryRequest>) -> Reply<pb::HistoryList> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(history::list(&mut conn, who.as_ref(), req.get_ref().limit).await?)
    }

    async fn get_shelf(&self, req: Request<pb::GetShelfRequest>) -> Reply<pb::Shelf> {
        let mut conn = self.conn().await?;
        ok(shelves::shelf(&mut conn, &req.get_ref().publisher_id).await?)
    }

    async fn list_publishers(
        &self,
        _req: Request<pb::ListPublishersRequest>,
    ) -> Reply<pb::PublisherList> {
        let mut conn = self.conn().await?;
        ok(shelves::publishers(&mut conn).await?)
    }

    async fn admin_list_books(
        &self,
        req: Request<pb::AdminListBooksRequest>,
    ) -> Reply<pb::BookPage> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(query::admin_list(&mut conn, who.as_ref(), req.get_ref()).await?)
    }

    async fn set_taken_down(&self, req: Request<pb::SetTakenDownRequest>) -> Reply<pb::Book> {
        let who = caller(&req).ok_or(CatalogError::Kit(KitError::Unauthenticated))?;
        let r = req.get_ref();
        let mut conn = self.conn().await?;
        let row =
            listing::set_taken_down(&mut conn, &who, &r.book_id, r.taken_down, &r.reason).await?;
        ok(view::book(&mut conn, Some(&who), row).await?)
    }

    async fn get_settings(&self, _req: Request<pb::GetSettingsRequest>) -> Reply<pb::Settings> {
        let mut conn = self.conn().await?;
        ok(settings::get(&mut conn, self.state.config.default_trial_percent).await?)
    }

    async fn update_settings(
        &self,
        req: Request<pb::UpdateSettingsRequest>,
    ) -> Reply<pb::Settings> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(settings::update(
            &mut conn,
            who.as_ref(),
            req.get_ref(),
            self.state.config.default_trial_percent,
        )
        .await?)
    }

    async fn book_stats(
        &self,
        req: Request<quire_proto::ops::v1::StatsRequest>,
    ) -> Reply<pb::BookStats> {
        let who = caller(&req);
        let mut conn = self.conn().await?;
        ok(book_stats::book_stats(&mut conn, who.as_ref(), req.get_ref()).await?)
    }
}
