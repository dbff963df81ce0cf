//! The edge as one service: every request passes it, outermost first,
//! - compression of the answer (only when the request says which encodings it accepts), a
//!   large catalog answer from the forms kept compressed (`compressed_answers`),
//! - the request id, the error envelope, the metrics and the log line (`envelope`),
//! - CORS (`cors`; only for a cross-origin request or preflight, the rest get the same headers
//!   from a list found once),
//! - the refusal of oversized header sections and declared bodies (`body_limit`),
//! - the body limit for the extractors, the request timeout and the panic catcher (`timeout`),
//! - the router (the operations with their route layer, `operation`).
//!
//! One service rather than a tower stack of them: each layer of a stack moves the request and
//! its future through a service of its own (a boxed future each for the envelope and the
//! timeout, a clone of the whole stack per request where hyper clones the service), and the
//! compression and CORS layers did their work for requests that need none. Here a request costs
//! one clone of an `Arc` and one boxed future; a compressed one a second.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;
use futures_util::future::Either;
use tower::{Layer, Service, ServiceExt};
use tower_http::cors::CorsLayer;

use super::compressed_answers::CompressedAnswers;
use super::{body_limit, compression, cors, envelope, timeout};
use crate::error::MAX_JSON_BODY_BYTES;

/// The whole service as the server runs it (`outermost`), or as the compression layer wraps it
/// (everything inside compression); a clone is an `Arc`'s.
#[derive(Clone)]
pub struct Edge {
    inner: Arc<Inner>,
    outermost: bool,
}

struct Inner {
    router: <DefaultBodyLimit as Layer<Router>>::Service,
    cors: CorsLayer,
    /// What `cors` adds to a request that is not cross-origin.
    cors_headers: Vec<(HeaderName, HeaderValue)>,
    request_timeout: Duration,
    compressed: CompressedAnswers,
}

type Answer = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

impl Edge {
    pub fn new(router: Router, cors: CorsLayer, request_timeout: Duration) -> Self {
        let cors_headers = cors::headers_without_origin(&cors);
        let router = DefaultBodyLimit::max(MAX_JSON_BODY_BYTES as usize).layer(router);
        let compressed = CompressedAnswers::default();
        let inner = Arc::new(Inner { router, cors, cors_headers, request_timeout, compressed });
        Self { inner, outermost: true }
    }
}

impl Service<Request> for Edge {
    type Response = Response;
    type Error = Infallible;
    type Future = Answer;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Answer {
        let inner = self.inner.clone();
        if self.outermost && request.headers().contains_key(header::ACCEPT_ENCODING) {
            let answer = compression::layer().layer(Edge { inner, outermost: false }).oneshot(request);
            return Box::pin(async move {
                let Ok(response) = answer.await;
                Ok(compression::tag_encoded_etags(response.map(Body::new)))
            });
        }
        if !self.outermost {
            // Inside the compression layer: a large answer may already be kept in the coding it
            // will choose.
            let coding = compression::preferred(request.headers());
            return Box::pin(async move {
                let response = inner.answer(request).await;
                Ok(match coding {
                    Some(coding) => inner.compressed.encode(response, coding).await,
                    None => response,
                })
            });
        }
        Box::pin(async move {
            let mut response = inner.answer(request).await;
            compression::say_varies_with_encoding(&mut response);
            Ok(response)
        })
    }
}

impl Inner {
    async fn answer(&self, request: Request) -> Response {
        envelope::enveloped(request, |request| {
            if cors::is_cross_origin(&request) {
                // Boxed: the CORS layer's future, around the router's, is the larger, and unboxed it
                // would size the future of every request, copied as each step moves it.
                return Either::Right(Box::pin(self.cross_origin(request)));
            }
            Either::Left(async move {
                let mut response = self.checked(request).await;
                cors::add_headers_without_origin(&mut response, &self.cors_headers);
                response
            })
        })
        .await
    }

    async fn cross_origin(&self, request: Request) -> Response {
        let checked =
            tower::service_fn(|request| async move { Ok::<_, Infallible>(self.checked(request).await) });
        let Ok(response) = self.cors.layer(checked).oneshot(request).await;
        response
    }

    /// The request refused for its size, or answered by the router within the time limit.
    async fn checked(&self, request: Request) -> Response {
        if let Some(refused) = body_limit::refusal(&request) {
            return refused;
        }
        let mut router = self.router.clone();
        timeout::within(self.request_timeout, move || async move {
            let Ok(response) = router.call(request).await;
            response
        })
        .await
    }
}
