//! arbor: an embeddable, allocation-free game-AI engine.
//!
//! The core is `#![no_std]` and never allocates: every tree lives in storage the caller
//! provides. The `std` feature (on by default) adds the `arbor` command-line harness,
//! threads and `std::error::Error` impls. The C ABI lives in [`ffi`] and is described by
//! the generated header `include/arbor.h`.
#![cfg_attr(all(not(feature = "std"), not(test)), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod breakthrough;
pub mod error;
pub mod ffi;
pub mod go;
pub mod holdem;
pub mod match3;
pub mod rng;
pub mod search;

#[cfg(feature = "std")]
pub mod harness;

pub use error::Error;

/// The crate version, as written in `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// A no_std static or shared library needs its own panic handler. Panics are bugs (every
// entry point validates its input first), so the handler only has to stop.
#[cfg(all(not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    loop {}
}

// The precompiled `core` was built to unwind and still names this symbol, though with
// `panic = "abort"` nothing calls it; defining it lets C link the no_std library.
#[cfg(all(not(feature = "std"), not(test)))]
#[unsafe(no_mangle)]
extern "C" fn rust_eh_personality() {}
