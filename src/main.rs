//! The `gosolve` binary: everything is in [`gosolve::cli`].

fn main() -> std::process::ExitCode {
    gosolve::cli::main()
}
