//! Log lines written to stderr by a thread of their own, so a request never waits on the terminal
//! or a pipe: the request's task hands the formatted line to a bounded queue and goes on.
//!
//! When the queue is full (stderr blocked, or a burst far beyond what it drains), the line is
//! dropped and counted, and the next line written says how many were lost: the request path never
//! blocks on logging. `flush` waits until what was queued is written (the command line calls it
//! before the process exits).
//!
//! The writer is not woken line by line. While lines keep coming it sleeps `WRITE_EVERY` between
//! drains, so a sender finds no one waiting and queues its line without a wake-up; only when a
//! drain finds the queue empty several times running does it block until the next line. Woken
//! for every line, it cost each request two context switches: with a request log line per request
//! on a node pinned to one core, the firearm detail answered 24,000 requests a second against
//! 51,000 with the request log off.

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError, sync_channel};
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// Lines held while the writer catches up; at about 200 bytes a line, a few MiB at most.
const QUEUE_LINES: usize = 16_384;
/// The writer's sleep between drains while lines keep coming: a line waits at most this long.
const WRITE_EVERY: Duration = Duration::from_millis(10);
/// Empty drains in a row after which the writer blocks until the next line (an idle node does not
/// wake a hundred times a second).
const IDLE_DRAINS: u32 = 50;
/// Bytes gathered before they are written in one call.
const BATCH_BYTES: usize = 64 * 1024;

enum Message {
    Line(Vec<u8>),
    /// Answered once every line queued before it is written.
    Flush(SyncSender<()>),
}

/// The `MakeWriter` handed to the subscriber: each event is one `Line` on the queue.
#[derive(Clone, Copy)]
pub struct BackgroundStderr;

struct Queue {
    sender: SyncSender<Message>,
    dropped: AtomicU64,
}

impl Queue {
    fn new(capacity: usize) -> (Queue, Receiver<Message>) {
        let (sender, receiver) = sync_channel(capacity);
        (Queue { sender, dropped: AtomicU64::new(0) }, receiver)
    }

    /// Queue a line (prefixed with the count of lines lost since the last one that got through),
    /// or drop and count it when the queue is full.
    fn send(&self, mut line: Vec<u8>) {
        let dropped = self.dropped.swap(0, Ordering::Relaxed);
        if dropped > 0 {
            let mut note =
                format!("({dropped} log lines dropped: the log writer fell behind)\n").into_bytes();
            note.append(&mut line);
            line = note;
        }
        match self.sender.try_send(Message::Line(line)) {
            Ok(()) | Err(TrySendError::Disconnected(_)) => {}
            Err(TrySendError::Full(_)) => {
                self.dropped.fetch_add(dropped + 1, Ordering::Relaxed);
            }
        }
    }
}

/// The process's queue, and the thread writing it to stderr, started with the first line.
fn queue() -> &'static Queue {
    static QUEUE: OnceLock<Queue> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (queue, receiver) = Queue::new(QUEUE_LINES);
        std::thread::Builder::new()
            .name("armory-log".into())
            .spawn(move || write_lines(receiver))
            .expect("the log writer thread starts");
        queue
    })
}

fn write_lines(receiver: Receiver<Message>) {
    let mut out = Batch { stderr: std::io::stderr(), bytes: Vec::with_capacity(BATCH_BYTES) };
    let mut empty_drains = 0;
    loop {
        let next = if empty_drains >= IDLE_DRAINS {
            // Idle: block (a sender wakes the writer once), then go back to draining on a timer.
            receiver.recv().map_err(|_| TryRecvError::Disconnected)
        } else {
            receiver.try_recv()
        };
        match next {
            Ok(message) => {
                empty_drains = 0;
                out.take(message);
            }
            Err(TryRecvError::Empty) => {
                out.write();
                empty_drains += 1;
                std::thread::sleep(WRITE_EVERY);
            }
            Err(TryRecvError::Disconnected) => {
                out.write();
                return;
            }
        }
    }
}

/// Lines gathered for one write to stderr.
struct Batch {
    stderr: std::io::Stderr,
    bytes: Vec<u8>,
}

impl Batch {
    fn take(&mut self, message: Message) {
        match message {
            Message::Line(line) => {
                self.bytes.extend_from_slice(&line);
                if self.bytes.len() >= BATCH_BYTES {
                    self.write();
                }
            }
            Message::Flush(done) => {
                self.write();
                let _ = done.send(());
            }
        }
    }

    /// Write and flush what is gathered.
    fn write(&mut self) {
        if self.bytes.is_empty() {
            return;
        }
        let mut stderr = self.stderr.lock();
        let _ = stderr.write_all(&self.bytes);
        let _ = stderr.flush();
        self.bytes.clear();
    }
}

/// Queue one whole line (ending in a newline) for stderr.
pub(super) fn send(line: Vec<u8>) {
    queue().send(line);
}

/// Wait (at most a second) until every line queued so far is written.
pub fn flush() {
    let (done, written) = sync_channel(1);
    if queue().sender.send(Message::Flush(done)).is_ok() {
        let _ = written.recv_timeout(std::time::Duration::from_secs(1));
    }
}

/// One event's line, sent when the subscriber drops the writer.
pub struct LineWriter(Vec<u8>);

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            send(std::mem::take(&mut self.0));
        }
    }
}

impl<'a> MakeWriter<'a> for BackgroundStderr {
    type Writer = LineWriter;

    fn make_writer(&'a self) -> LineWriter {
        LineWriter(Vec::with_capacity(256))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(message: Message) -> String {
        match message {
            Message::Line(bytes) => String::from_utf8(bytes).unwrap(),
            Message::Flush(_) => panic!("a line was expected"),
        }
    }

    #[test]
    fn a_full_queue_drops_and_counts_instead_of_blocking() {
        let (queue, receiver) = Queue::new(2);
        for i in 0..5 {
            queue.send(format!("line {i}\n").into_bytes());
        }
        assert_eq!(line(receiver.try_recv().unwrap()), "line 0\n");
        assert_eq!(line(receiver.try_recv().unwrap()), "line 1\n");
        assert!(receiver.try_recv().is_err(), "lines 2 to 4 were dropped, not queued");
        queue.send(b"line 5\n".to_vec());
        assert_eq!(
            line(receiver.try_recv().unwrap()),
            "(3 log lines dropped: the log writer fell behind)\nline 5\n"
        );
    }
}
