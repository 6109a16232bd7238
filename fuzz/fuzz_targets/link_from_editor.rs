//! `animgraph_robustness::targets::link_from_editor` on arbitrary bytes: see that function for what is run
//! and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    animgraph_robustness::targets::link_from_editor(data);
});
