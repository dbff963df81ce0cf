//! The process's allocator: mimalloc rather than the system's, here rather than in `main.rs` so
//! the tests and the in-process benches run on the allocator the service does. The import, the
//! snapshot build and each request allocate many small short-lived objects, and glibc's malloc
//! spent about a third of an import's time in its free lists (`unlink_chunk`,
//! `malloc_consolidate`); see bench/README.md.
//!
//! With `low_priority`, the one module that may use `unsafe` (the crate denies it elsewhere): to set
//! mimalloc's options, which its Rust crate does not wrap, and the process's huge-page flag.
#![allow(unsafe_code)]

use std::ffi::{c_int, c_long};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc 3's `mi_option_t` (`include/mimalloc.h`, the version
/// `libmimalloc-sys` builds by default), which that crate does not name.
const PURGE_DELAY: c_int = 15;

unsafe extern "C" {
    // mimalloc's own, linked in by `libmimalloc-sys`.
    fn mi_option_set(option: c_int, value: c_long);
    fn mi_option_get(option: c_int) -> c_long;
    fn mi_collect(force: bool);
}

/// Keep memory the process frees for its next allocations instead of handing it back to the OS
/// a second after: for a command that runs a batch and ends (`catalog import`), never for the server,
/// whose resident size after a build is what it keeps.
///
/// An import of 100,000 firearms frees and allocates its chunks of rows over and over; memory
/// handed back to the OS is faulted in and zeroed again each time (2 MiB transparent huge pages
/// here), about 40% of the time of parsing the files (bench/README.md has the figures).
pub fn keep_freed_memory() {
    // SAFETY: mi_option_set only stores the value in mimalloc's option table, which is read, not
    // cached, by every later purge decision; any thread may call it at any time.
    unsafe { mi_option_set(PURGE_DELAY, -1) };
}

/// Keep a serving process off transparent huge pages, for what it keeps resident: mimalloc asks
/// the kernel for 2 MiB pages on its arenas (`MADV_HUGEPAGE`), and a huge page is resident whole
/// however little of it is in use. At 100,000 synthetic firearms a node without them peaks some
/// 40 MiB lower, ready no later and reading no slower (bench/README.md has the figures). Batch
/// commands that end (an import) keep the default.
///
/// The flag belongs to the process (its memory map) and holds for every later page fault, the
/// arenas mimalloc took before `main` included; pages already huge stay so.
#[cfg(target_os = "linux")]
pub fn without_huge_pages() {
    // SAFETY: prctl(PR_SET_THP_DISABLE) takes plain integers and only sets a flag on the calling
    // process's memory map; it touches no memory of ours.
    let set = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    if set != 0 {
        tracing::debug!(error = %std::io::Error::last_os_error(), "cannot turn transparent huge pages off");
    }
}

#[cfg(not(target_os = "linux"))]
pub fn without_huge_pages() {}

/// Run `work` with memory it frees handed back to the OS at once, then hand back what the calling
/// thread still holds free: for loading or building a snapshot, whose large short-lived buffers
/// (a decoder's read buffer, a build's rendered texts) otherwise stay resident, since mimalloc
/// purges a thread's free pages only when that thread allocates again a second later, and a
/// blocking thread that built a snapshot goes idle. At 100,000 synthetic firearms a node that
/// reused its snapshot peaked at 329 MiB with the default and 315 MiB with prompt purging.
pub fn returning_freed_memory<T>(work: impl FnOnce() -> T) -> T {
    // SAFETY: both calls only read or store a value in mimalloc's option table (see above).
    let delay = unsafe { mi_option_get(PURGE_DELAY) };
    unsafe { mi_option_set(PURGE_DELAY, 0) };
    let out = work();
    // SAFETY: mi_collect frees this thread's empty pages; it takes no pointer of ours.
    unsafe {
        mi_collect(true);
        mi_option_set(PURGE_DELAY, delay);
    }
    out
}
