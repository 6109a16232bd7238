//! 100,000+ mutated variants of the example files go through the loader without a panic.

use animgraph_runtime::mres;

/// SplitMix64: a small deterministic generator, so a failure reproduces from its index.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INTERESTING: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"null",
    b"-1",
    b"1e39",
    b"NaN",
    b"\"*\"",
    b"\"<exit>\"",
    b"{\"res\": \"m_base\"}",
    b"{\"res\": \"l_base\"}",
    b"\\u0000",
    b"0",
    b"true",
    b"[]",
    b"{}",
];

fn mutate(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = base.to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(6) {
            0 => {
                // byte flip
                let i = rng.below(bytes.len());
                if let Some(b) = bytes.get_mut(i) {
                    *b ^= 1 << rng.below(8);
                }
            }
            1 => {
                // truncation
                let n = rng.below(bytes.len());
                bytes.truncate(n);
            }
            2 | 3 => {
                // delete or duplicate a line
                let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
                let i = rng.below(lines.len());
                let duplicate = rng.below(2) == 0;
                let mut out = Vec::with_capacity(bytes.len() + 200);
                for (j, line) in lines.iter().enumerate() {
                    if j == i && !duplicate {
                        continue;
                    }
                    out.extend_from_slice(line);
                    out.push(b'\n');
                    if j == i && duplicate {
                        out.extend_from_slice(line);
                        out.push(b'\n');
                    }
                }
                bytes = out;
            }
            4 => {
                // splice in a JSON-ish token
                let token = INTERESTING[rng.below(INTERESTING.len())];
                let i = rng.below(bytes.len() + 1).min(bytes.len());
                bytes.splice(i..i, token.iter().copied());
            }
            _ => {
                // replace a quoted word with another quoted word from the file
                let quotes: Vec<usize> =
                    bytes.iter().enumerate().filter(|(_, b)| **b == b'"').map(|(i, _)| i).collect();
                if quotes.len() >= 4 {
                    let a = rng.below(quotes.len() - 1);
                    let b = rng.below(quotes.len() - 1);
                    let (a0, a1) = (quotes[a], quotes[a + 1]);
                    let word = bytes[quotes[b]..=quotes[b + 1]].to_vec();
                    if a0 < a1 {
                        bytes.splice(a0..=a1, word);
                    }
                }
            }
        }
    }
    bytes
}

#[test]
fn mutated_example_files_never_panic_the_loader() {
    let dir = format!("{}/../../assets/graphs", env!("CARGO_MANIFEST_DIR"));
    let bases: Vec<Vec<u8>> = ["locomotion.mres", "showcase.mres"]
        .iter()
        .map(|f| std::fs::read(format!("{dir}/{f}")).unwrap())
        .collect();
    let mut rng = Rng(0x5EED);
    let (mut loaded, mut rejected) = (0usize, 0usize);
    const VARIANTS: usize = 100_000;
    for i in 0..VARIANTS {
        let base = &bases[i % bases.len()];
        let bytes = mutate(base, &mut rng);
        let text = String::from_utf8_lossy(&bytes);
        let result = std::panic::catch_unwind(|| mres::load_str(&text).map(|l| l.graph));
        match result {
            Ok(Ok(graph)) => {
                loaded += 1;
                // Whatever loads must save and load back to the same graph.
                let again = mres::load_str(&mres::save_to_string(&graph)).expect("a loaded graph re-saves");
                assert_eq!(again.graph, graph, "variant {i}");
            }
            Ok(Err(e)) => {
                rejected += 1;
                assert!(!e.to_string().is_empty(), "variant {i}: an error with no message");
            }
            Err(_) => panic!("variant {i} panicked the loader:\n{text}"),
        }
    }
    assert_eq!(loaded + rejected, VARIANTS);
    // The mutations must actually exercise both paths.
    assert!(rejected > VARIANTS / 2, "only {rejected} rejected");
    assert!(loaded > 100, "only {loaded} loaded");
    println!("{loaded} variants loaded, {rejected} rejected");
}
