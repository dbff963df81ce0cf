//! The accept loop, with the connection hygiene an open-internet server needs:
//! - a cap on open connections (past it, new ones wait in the kernel's backlog);
//! - a header-read timeout: a client that does not finish its request head in time (slowloris, or
//!   an HTTP/1 keep-alive connection that sends no next request) is closed;
//! - an idle timeout: a connection that moves no byte either way for that long (a client that stops
//!   reading its answer) is closed;
//! - on shutdown, every connection is asked to finish its request in flight and close, and after
//!   the grace period the stragglers are dropped, so a half-sent request cannot hold SIGTERM.
//!
//! The request timeout (a handler that takes too long) is a layer of the router (`routes`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tower::{Service, ServiceExt};

use crate::config::ConnectionSettings;
use crate::error::{ApiError, Reason};
use crate::http::access::transport::Transport;

/// Serve `router` on `listener` until `stop` resolves, then shut down within the grace period.
pub async fn serve<S>(
    listener: TcpListener,
    router: S,
    settings: ConnectionSettings,
    tls: Option<TlsAcceptor>,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
{
    let permits = Arc::new(Semaphore::new(settings.max_connections));
    let (closing, _) = tokio::sync::watch::channel(false);
    let mut connections = JoinSet::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let permit = tokio::select! {
            _ = &mut stop => break,
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
        };
        let (stream, remote) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors and the like: back off a moment instead of spinning.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let router = router.clone();
        let settings = settings.clone();
        let closing = closing.subscribe();
        let tls = tls.clone();
        connections.spawn(async move {
            let _ = stream.set_nodelay(true);
            match tls {
                None => serve_connection(stream, remote, false, router, &settings, closing).await,
                Some(acceptor) => {
                    // The handshake counts against the header-read timeout like the head itself.
                    let handshake =
                        tokio::time::timeout(settings.header_read_timeout, acceptor.accept(stream));
                    match handshake.await {
                        Ok(Ok(stream)) => {
                            serve_connection(stream, remote, true, router, &settings, closing).await
                        }
                        Ok(Err(e)) => tracing::debug!(error = %e, %remote, "TLS handshake failed"),
                        Err(_) => tracing::debug!(%remote, "TLS handshake timed out"),
                    }
                }
            }
            drop(permit);
        });
        // Reap finished connections so the set does not grow with the server's lifetime.
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = closing.send(true);
    let grace = tokio::time::sleep(settings.shutdown_grace);
    tokio::pin!(grace);
    loop {
        tokio::select! {
            next = connections.join_next() => if next.is_none() { break },
            _ = &mut grace => {
                tracing::warn!(open = connections.len(), "shutdown grace period over; dropping the rest");
                connections.abort_all();
                break;
            }
        }
    }
    Ok(())
}

async fn serve_connection<T, S>(
    stream: T,
    remote: SocketAddr,
    tls: bool,
    router: S,
    settings: &ConnectionSettings,
    mut closing: tokio::sync::watch::Receiver<bool>,
) where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
{
    let activity = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let io = TokioIo::new(Watched { inner: stream, activity: activity.clone(), started, rewriting: None });
    let service = router.map_request(move |request: axum::http::Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(Transport { tls, remote });
        request
    });
    let service = TowerToHyperService::new(service);
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(settings.header_read_timeout);
    // No HTTP/2 keep-alive pings: they would count as activity and keep an idle connection open
    // past the idle timeout.
    builder.http2().timer(TokioTimer::new());
    let connection = builder.serve_connection_with_upgrades(io, service);
    tokio::pin!(connection);
    let mut watchdog = tokio::time::interval(Duration::from_secs(1).min(settings.idle_timeout));
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "connection ended with an error");
                }
                return;
            }
            _ = closing.changed() => connection.as_mut().graceful_shutdown(),
            _ = watchdog.tick() => {
                let last = Duration::from_millis(activity.load(Ordering::Relaxed));
                if started.elapsed().saturating_sub(last) > settings.idle_timeout {
                    tracing::debug!(%remote, "closing an idle connection");
                    return;
                }
            }
        }
    }
}

/// A stream that notes when it last moved a byte (milliseconds since the connection opened), and
/// puts the error answers hyper writes by itself (a request it cannot parse: 400 for a bad
/// Content-Length or request line, 414, 431) into the JSON envelope with a request id, the one
/// kind of answer that never passes the router's middleware.
struct Watched<S> {
    inner: S,
    activity: Arc<AtomicU64>,
    started: Instant,
    /// A rewritten answer being written, how much of it is out, and the length hyper handed us.
    rewriting: Option<(Vec<u8>, usize, usize)>,
}

impl<S> Watched<S> {
    fn touch(&self) {
        self.activity.store(self.started.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.touch();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        if this.rewriting.is_none()
            && let Some(enveloped) = envelope_bare_error(data)
        {
            this.rewriting = Some((enveloped, 0, data.len()));
        }
        if let Some((bytes, written, handed)) = this.rewriting.as_mut() {
            while *written < bytes.len() {
                match Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]) {
                    Poll::Ready(Ok(0)) => return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into())),
                    Poll::Ready(Ok(n)) => *written += n,
                    other => return other,
                }
            }
            let handed = *handed;
            this.rewriting = None;
            this.touch();
            return Poll::Ready(Ok(handed));
        }
        let polled = Pin::new(&mut this.inner).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            this.touch();
        }
        polled
    }

    /// A head and body go out in one `writev` rather than hyper copying the body behind the head
    /// first. hyper's bare error answers have no body: a single buffer takes the path above.
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buffers: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let mut filled = buffers.iter().filter(|buffer| !buffer.is_empty());
        if let (Some(only), None) = (filled.next(), filled.next()) {
            return Pin::new(this).poll_write(cx, only);
        }
        if this.rewriting.is_some() {
            let first = buffers.iter().find(|buffer| !buffer.is_empty()).map_or(&[][..], |b| &b[..]);
            return Pin::new(this).poll_write(cx, first);
        }
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, buffers);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            this.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// hyper's own answer to a request it could not parse is a bare status line with an empty body
/// (and no request id, which every answer of ours carries). Such an answer, whole in `data`, comes
/// back as the same status with the JSON envelope; anything else is left alone.
fn envelope_bare_error(data: &[u8]) -> Option<Vec<u8>> {
    // Every answer passes here: decide on the status line's bytes before looking at the rest.
    if !data.starts_with(b"HTTP/1.1 4") || !data.ends_with(b"\r\n\r\n") {
        return None;
    }
    let head = std::str::from_utf8(data).ok()?;
    let status_line = head.strip_prefix("HTTP/1.1 ")?.split("\r\n").next()?;
    let status: u16 = status_line.get(..3)?.parse().ok()?;
    let lower = head.to_ascii_lowercase();
    if !(400..500).contains(&status)
        || !head.ends_with("\r\n\r\n")
        || !lower.contains("content-length: 0\r\n")
        || lower.contains("x-request-id")
    {
        return None;
    }
    let message = match status {
        414 => "The request URI is too long.",
        431 => "The request's header fields are too large.",
        _ => "The request could not be parsed (its request line, a header or its Content-Length).",
    };
    let request_id = crate::telemetry::new_request_id();
    let body = ApiError::new(Reason::InvalidRequest, message).body(&request_id).to_string();
    Some(
        format!(
            "HTTP/1.1 {status_line}\r\ncontent-type: application/json\r\nx-request-id: {request_id}\r\n\
             connection: close\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyper_bare_errors_get_the_envelope_and_ours_are_left_alone() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 24 Nov 2026 02:40:10 GMT\r\n\r\n";
        let enveloped = String::from_utf8(envelope_bare_error(bare).unwrap()).unwrap();
        assert!(enveloped.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(enveloped.contains("x-request-id: ") && enveloped.contains("\"reason\":\"INVALID_REQUEST\""));
        let ours = b"HTTP/1.1 404 Not Found\r\nx-request-id: abc\r\ncontent-length: 0\r\n\r\n";
        assert!(envelope_bare_error(ours).is_none());
        assert!(envelope_bare_error(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
