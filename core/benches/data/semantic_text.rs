// Included by benches/semantic.rs and examples/semantic_compare.rs: the same
// deterministic text and vectors for both.

/// About `bytes` of prose in paragraphs of sentences that drift between
/// topics (each topic has its own words), generated from a fixed seed.
fn semantic_text(bytes: usize) -> String {
    const TOPICS: [&[&str]; 4] = [
        &[
            "refund", "order", "card", "days", "store", "credit", "payment", "bank",
        ],
        &[
            "rust", "borrow", "compiler", "lifetime", "trait", "crate", "memory", "safe",
        ],
        &[
            "weather", "rain", "sunny", "wind", "cloud", "storm", "cold", "forecast",
        ],
        &[
            "cat", "purr", "sleep", "whisker", "mouse", "tail", "fur", "nap",
        ],
    ];
    const COMMON: [&str; 8] = ["the", "a", "is", "and", "of", "to", "it", "very"];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut text = String::with_capacity(bytes + 200);
    let mut topic = 0;
    while text.len() < bytes {
        if next(6) == 0 {
            topic = next(TOPICS.len());
        }
        let words = 6 + next(12);
        for w in 0..words {
            let word = if next(3) == 0 {
                COMMON[next(COMMON.len())]
            } else {
                TOPICS[topic][next(8)]
            };
            if w > 0 {
                text.push(' ');
            }
            text.push_str(word);
        }
        text.push_str([". ", ". ", "? ", "! ", ".\n\n"][next(5)]);
    }
    text
}

/// `dims`-dimensional vectors for `count` groups: deterministic, dense.
fn semantic_vectors(count: usize, dims: usize) -> Vec<Vec<f64>> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    (0..count)
        .map(|_| {
            (0..dims)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % 2001) as f64 / 1000.0 - 1.0
                })
                .collect()
        })
        .collect()
}
