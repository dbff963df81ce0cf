//! Work no request waits on, run beside the service at a lower CPU priority: the figures a patch
//! defers (statistics, rankings, game analytics; `read::deferred`) take seconds of a core at
//! 100,000 firearms, and at the same priority they halved the speed of the next patch and of
//! the requests that came meanwhile on a node with one or two cores.
//!
//! Besides `allocator`, the one module that may use `unsafe`: a thread's nice value is set
//! through `setpriority`, which the standard library does not wrap.
#![allow(unsafe_code)]

/// How much lower than the service's: at 10, the scheduler gives a busy thread of the service
/// about ten times the time of this one while both want the core (nice weights 1024 to 110).
const NICENESS: i32 = 10;

/// Run `work` on a new thread named `name` at the lower priority (the module's doc). The thread
/// ends with the work, so its priority never reaches other work.
pub fn spawn(name: &str, work: impl FnOnce() + Send + 'static) {
    let spawned = std::thread::Builder::new().name(name.to_owned()).spawn(move || {
        lower_this_threads_priority();
        work();
    });
    if let Err(e) = spawned {
        tracing::warn!(thread = name, error = %e, "cannot start a background thread");
    }
}

/// On Linux a nice value belongs to a thread: `setpriority` on its thread id lowers this one only.
#[cfg(target_os = "linux")]
fn lower_this_threads_priority() {
    // SAFETY: both calls take plain integers and touch no memory of ours.
    let set = unsafe {
        let thread = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, NICENESS)
    };
    if set != 0 {
        tracing::debug!(error = %std::io::Error::last_os_error(), "cannot lower a background thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_this_threads_priority() {}

#[cfg(test)]
mod tests {
    #[test]
    fn background_work_runs_at_the_lower_priority() {
        let (sender, receiver) = std::sync::mpsc::channel();
        super::spawn("priority-test", move || {
            // SAFETY: as above.
            let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
            sender.send(nice).unwrap();
        });
        let nice = receiver.recv().unwrap();
        // SAFETY: as above.
        let ours = unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        assert_eq!(nice, (ours + super::NICENESS).min(19), "the work ran niced, the caller is not");
    }
}
