//! A small deterministic mutator: what a fuzzer does to a file, reproducible from a seed.

/// SplitMix64: a tiny deterministic generator, so a failure reproduces from its seed and index.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Tokens that break text formats in interesting ways: structure, huge and non-finite
/// numbers, wrapped counts, empty and special strings.
pub const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "(",
    ")",
    "=",
    "\n",
    "null",
    "true",
    "-1",
    "0",
    "1",
    "65535",
    "65536",
    "4294967295",
    "18446744073709551615",
    "1e39",
    "-1e39",
    "NaN",
    "inf",
    "1e-45",
    "\"\"",
    "[]",
    "{}",
    "\\u0000",
    "\"/dev/zero\"",
    "\"../../etc/passwd\"",
    "\"*\"",
];

/// One to three mutations of `base`: byte flips, truncation, token insertion, a range deleted,
/// duplicated or repeated many times, a number replaced by a troublesome one.
pub fn mutate(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = base.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        match rng.below(7) {
            0 => {
                if let Some(b) = bytes.get_mut(rng.below(len)) {
                    *b ^= 1 << rng.below(8);
                }
            }
            1 => bytes.truncate(rng.below(len + 1)),
            2 | 3 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                let at = rng.below(len + 1);
                bytes.splice(at..at, token.bytes());
            }
            4 => {
                let from = rng.below(len + 1);
                let to = (from + rng.below(64)).min(len);
                bytes.drain(from..to);
            }
            5 => {
                // Duplicate a range, sometimes many times (long strings, many elements).
                let from = rng.below(len + 1);
                let to = (from + rng.below(48)).min(len);
                let copies = if rng.below(8) == 0 { 200 } else { 1 };
                let piece = bytes[from..to].repeat(copies);
                bytes.splice(to..to, piece);
            }
            _ => {
                // Replace a number.
                let digits: Vec<usize> = (0..len).filter(|&i| bytes[i].is_ascii_digit()).collect();
                if digits.is_empty() {
                    continue;
                }
                let start = digits[rng.below(digits.len())];
                let mut end = start;
                while end < len && (bytes[end].is_ascii_digit() || b".e-+".contains(&bytes[end])) {
                    end += 1;
                }
                let numbers = ["0", "-1", "65535", "65536", "4294967296", "1e30", "1e39", "0.0001", "7"];
                let number = numbers[rng.below(numbers.len())];
                bytes.splice(start..end, number.bytes());
            }
        }
    }
    bytes
}

/// Runs `target` on `count` mutations of the seeds (round robin), returning how many inputs it
/// accepted. A panic names the seed and index to reproduce it with.
pub fn run(name: &str, seeds: &[Vec<u8>], count: usize, seed: u64, target: impl Fn(&[u8]) -> bool) -> usize {
    let mut rng = Rng(seed);
    let mut accepted = 0;
    for i in 0..count {
        let base = &seeds[i % seeds.len()];
        let input = if i < seeds.len() { base.clone() } else { mutate(base, &mut rng) };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(&input)));
        match outcome {
            Ok(true) => accepted += 1,
            Ok(false) => {}
            Err(_) => {
                let file = std::env::temp_dir().join(format!("animgraph-{name}-crash-{i}"));
                let _ = animgraph_runtime::files::write_atomic(&file, &input);
                panic!("{name}: input {i} (Rng({seed:#x})) panicked; it was saved to {}", file.display());
            }
        }
    }
    accepted
}
