//! The built React app under `/platform`: real files as they are, every other path gets
//! `index.html` so the browser's router can take it (deep links, reloads).

use actix_files::{Files, NamedFile};
use actix_web::dev::{ServiceRequest, ServiceResponse, fn_service};
use actix_web::{HttpRequest, HttpResponse, Responder, web};

/// `/` and `/platform` lead to the app's root, keeping the query: a search or genre page
/// (`/platform?q=whale`) can be reloaded and shared.
async fn to_the_app(req: HttpRequest) -> HttpResponse {
    let location = match req.query_string() {
        "" => "/platform/".to_owned(),
        query => format!("/platform/?{query}"),
    };
    HttpResponse::Found()
        .insert_header(("Location", location))
        .finish()
}

pub fn configure(dir: String) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let index = std::path::Path::new(&dir).join("index.html");
        cfg.route("/", web::get().to(to_the_app))
            .route("/platform", web::get().to(to_the_app))
            .service(
                Files::new("/platform", &dir)
                    .index_file("index.html")
                    .prefer_utf8(true)
                    .default_handler(fn_service(move |req: ServiceRequest| {
                        let index = index.clone();
                        async move {
                            let (req, _) = req.into_parts();
                            let response = match NamedFile::open_async(&index).await {
                                Ok(file) => file
                                    .customize()
                                    .insert_header(("Cache-Control", "no-cache"))
                                    .respond_to(&req)
                                    .map_into_boxed_body(),
                                Err(_) => HttpResponse::ServiceUnavailable()
                                    .content_type("text/plain")
                                    .body("The web app is not built: run `make frontend`."),
                            };
                            Ok(ServiceResponse::new(req, response))
                        }
                    })),
            );
    }
}
