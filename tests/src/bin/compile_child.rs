//! The plugin compiler process of the integration tests: what `veillee __compile-plugin` is
//! for the binary. The tests' runtimes start it (`Runtime::compiling_in`) to compile
//! untrusted plugins under a budget of time and memory, as the launcher does.
//!
//! Usage: `compile_child __compile-plugin MEMORY_BYTES SECONDS MODULE_BYTES < module.wasm`

fn main() {
    veillee_runtime::plugin::serve_compile_if_asked();
    eprintln!(
        "usage: compile_child {} MEMORY_BYTES SECONDS MODULE_BYTES < module.wasm",
        veillee_runtime::plugin::COMPILE_SUBCOMMAND
    );
    std::process::exit(2);
}
