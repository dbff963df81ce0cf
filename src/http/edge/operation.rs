//! The one route layer of every documented operation: the access gate, around the conditional
//! answer (a 304 passes the gate, which must see it to give the day's unit back), around the replay
//! of idempotent POSTs (which needs the caller the gate found), around the handler.
//!
//! One layer rather than three, and a plain tower service rather than axum's `from_fn`, which
//! boxes the route inside it again, splits the request to extract its arguments and joins it back
//! on every request; here the three steps are plain functions called in order.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use tower::{Layer, Service, ServiceExt};

use crate::access::admission::Access;
use crate::db::Db;
use crate::http::access::gate::gate;
use crate::http::edge::{conditional, idempotency};

/// What the route layer needs: the access layer's state and the database idempotent answers live in.
#[derive(Clone)]
pub struct OperationLayer {
    pub access: Arc<Access>,
    pub db: Db,
}

impl<S> Layer<S> for OperationLayer {
    type Service = AroundOperation<S>;

    fn layer(&self, route: S) -> AroundOperation<S> {
        AroundOperation { layer: self.clone(), route }
    }
}

/// A route with the operation's steps around it.
#[derive(Clone)]
pub struct AroundOperation<S> {
    layer: OperationLayer,
    route: S,
}

impl<S> Service<Request> for AroundOperation<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.route.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let OperationLayer { access, db } = self.layer.clone();
        let route = self.route.clone();
        // The router sets it on every request it routes to a layer of `route_layer`.
        let matched = request.extensions().get::<MatchedPath>().cloned();
        Box::pin(async move {
            let template = matched.as_ref().map_or("", MatchedPath::as_str);
            let answer = gate(&access, template, request, |request| {
                conditional::answer_not_modified(request, |request| {
                    idempotency::replay_or_record(&db, request, |request| async move {
                        let Ok(response) = route.oneshot(request).await;
                        response
                    })
                })
            });
            Ok(answer.await)
        })
    }
}
