//! `animgraph_robustness::targets::markers` on arbitrary bytes: see that function for what is run
//! and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    animgraph_robustness::targets::markers(data);
});
