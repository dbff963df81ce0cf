fn main() -> std::process::ExitCode {
    armory::cli::main()
}
