//! Log lines written to stderr by a thread of their own, so a request never waits on the terminal
//! or a pipe: the request's task hands the formatted line to a bounded queue and goes on.
//!
//! When the queue is full (stderr blocked, or a burst far beyond what it drains), the line is
//! dropped and counted, and the next line written says how many were lost: the request path never
//! blocks on logging. `flush` waits until what was queued is written (the command line calls it
//! before the process exits).

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};

use tracing_subscriber::fmt::MakeWriter;

/// Lines held while the writer catches up; at about 200 bytes a line, a few MiB at most.
const QUEUE_LINES: usize = 16_384;

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
    let stderr = std::io::stderr();
    while let Ok(first) = receiver.recv() {
        let mut out = stderr.lock();
        let mut next = Some(first);
        // Write what is queued in one go, flushing when the queue is empty.
        while let Some(message) = next {
            match message {
                Message::Line(line) => {
                    let _ = out.write_all(&line);
                }
                Message::Flush(done) => {
                    let _ = out.flush();
                    let _ = done.send(());
                }
            }
            next = receiver.try_recv().ok();
        }
        let _ = out.flush();
    }
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
            queue().send(std::mem::take(&mut self.0));
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
