/// mimalloc rather than the system allocator: the import, the snapshot build and each request
/// allocate many small short-lived objects, and glibc's malloc spent about a third of an import's
/// time in its free lists (`unlink_chunk`, `malloc_consolidate`); see bench/README.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    armory::cli::main()
}
