//! Feeds arbitrary bytes to the .mres loader: it must never panic, and whatever loads must
//! save and load back to the same graph.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(loaded) = animgraph_runtime::mres::load_str(text) {
        let saved = animgraph_runtime::mres::save_to_string(&loaded.graph);
        let again = animgraph_runtime::mres::load_str(&saved).expect("a saved graph loads");
        assert_eq!(again.graph, loaded.graph);
    }
});
