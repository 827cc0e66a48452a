//! Words, and the alignment of gold words to page words.
//!
//! Gold-text datasets (CleanEval, Dragnet, Big9) give no node labels, only the text a person
//! judged to be content. As CleanEval, Dragnet and BoilerNet do, we derive word labels by
//! aligning the gold word sequence to the page's word sequence: a page word is "in the gold"
//! when it takes part in a longest common subsequence (LCS) of the two.
//!
//! **Words.** A word is a maximal run of alphanumeric characters, lowercased. Punctuation and
//! markup never form words, so `Kosovo’s`, `Kosovo's` and the mis-decoded `Kosovo?s` all give
//! `kosovo s`: gold files and pages disagree about quotes, dashes and entities far more often
//! than about letters, and a case change (headline capitalisation) is not a content change.
//!
//! **Alignment.** Exact LCS by the bit-parallel algorithm of Allison & Dix (1986) in Hyyrö's
//! formulation: one pass over the page words costs `⌈gold/64⌉` word operations per page word,
//! and keeping each row's 64-bit blocks (`page × gold / 8` bytes) allows an exact traceback.
//! Common prefixes and suffixes are matched first. When a problem is too big for the row store
//! (more than [`MAX_DP_CELLS`] cells), it is cut at anchors — words that occur exactly once in
//! each sequence, in increasing order on both sides (the patience-diff idea) — and each gap is
//! solved on its own. Ties between equally long alignments are broken towards matching page
//! words late in the page (the traceback runs from the end), which is deterministic.

use std::collections::HashMap;

/// Largest `page × gold` product solved by one bit-parallel table (the row store takes an
/// eighth of this in bytes: 32 MiB). A 20k × 5k page needs 100M cells, well inside.
pub const MAX_DP_CELLS: usize = 1 << 28;

/// For each page word, whether the alignment matches it with a gold word.
pub fn align_gold_words(page_words: &[&str], gold_words: &[&str]) -> Vec<bool> {
    align_words(page_words, gold_words)
        .into_iter()
        .map(|matched| matched.is_some())
        .collect()
}

/// For each page word, the index of the gold word it is matched with, if any. Matched pairs
/// increase in both indices and form a longest common subsequence (exactly, unless the problem
/// had to be cut at anchors; see the module doc).
pub fn align_words(page_words: &[&str], gold_words: &[&str]) -> Vec<Option<usize>> {
    let (page, gold) = intern(page_words, gold_words);
    let mut matched = vec![None; page.len()];
    align_range(&page, &gold, 0, 0, &mut matched);
    matched
}

/// Maps words to dense integer symbols shared by both sequences.
fn intern(page_words: &[&str], gold_words: &[&str]) -> (Vec<u32>, Vec<u32>) {
    let mut symbols: HashMap<&str, u32> = HashMap::new();
    let mut symbol_of = |word| {
        let next = symbols.len() as u32;
        *symbols.entry(word).or_insert(next)
    };
    let page = page_words.iter().map(|w| symbol_of(w)).collect();
    let gold = gold_words.iter().map(|w| symbol_of(w)).collect();
    (page, gold)
}

/// Aligns `page` (starting at page index `page_at`) with `gold` (starting at gold index
/// `gold_at`), writing matches into `matched`.
fn align_range(
    page: &[u32],
    gold: &[u32],
    page_at: usize,
    gold_at: usize,
    matched: &mut [Option<usize>],
) {
    let prefix = page.iter().zip(gold).take_while(|(p, g)| p == g).count();
    for offset in 0..prefix {
        matched[page_at + offset] = Some(gold_at + offset);
    }
    let (page, gold) = (&page[prefix..], &gold[prefix..]);
    let (page_at, gold_at) = (page_at + prefix, gold_at + prefix);
    let suffix = page
        .iter()
        .rev()
        .zip(gold.iter().rev())
        .take_while(|(p, g)| p == g)
        .count();
    for offset in 1..=suffix {
        matched[page_at + page.len() - offset] = Some(gold_at + gold.len() - offset);
    }
    let (page, gold) = (&page[..page.len() - suffix], &gold[..gold.len() - suffix]);
    if page.is_empty() || gold.is_empty() {
        return;
    }
    if page.len().saturating_mul(gold.len()) <= MAX_DP_CELLS {
        for (page_index, gold_index) in bit_parallel_lcs(page, gold) {
            matched[page_at + page_index] = Some(gold_at + gold_index);
        }
        return;
    }
    let anchors = unique_anchors(page, gold);
    if anchors.is_empty() {
        // No anchor to cut at: align the head of the page with the whole gold, as large as the
        // table allows. Pages this big without a single shared unique word are not real pages.
        let rows = (MAX_DP_CELLS / gold.len()).max(1).min(page.len());
        for (page_index, gold_index) in bit_parallel_lcs(&page[..rows], gold) {
            matched[page_at + page_index] = Some(gold_at + gold_index);
        }
        return;
    }
    let (mut page_from, mut gold_from) = (0, 0);
    for (page_index, gold_index) in anchors {
        align_range(
            &page[page_from..page_index],
            &gold[gold_from..gold_index],
            page_at + page_from,
            gold_at + gold_from,
            matched,
        );
        matched[page_at + page_index] = Some(gold_at + gold_index);
        (page_from, gold_from) = (page_index + 1, gold_index + 1);
    }
    align_range(
        &page[page_from..],
        &gold[gold_from..],
        page_at + page_from,
        gold_at + gold_from,
        matched,
    );
}

/// Pairs of positions of symbols that occur exactly once in each sequence, reduced to a longest
/// chain increasing on both sides.
fn unique_anchors(page: &[u32], gold: &[u32]) -> Vec<(usize, usize)> {
    fn single_positions(sequence: &[u32]) -> HashMap<u32, Option<usize>> {
        let mut positions: HashMap<u32, Option<usize>> = HashMap::new();
        for (index, &symbol) in sequence.iter().enumerate() {
            positions
                .entry(symbol)
                .and_modify(|seen| *seen = None)
                .or_insert(Some(index));
        }
        positions
    }
    let in_gold = single_positions(gold);
    let in_page = single_positions(page);
    let pairs: Vec<(usize, usize)> = page
        .iter()
        .enumerate()
        .filter(|&(_, symbol)| in_page.get(symbol).copied().flatten().is_some())
        .filter_map(|(page_index, symbol)| {
            Some((page_index, in_gold.get(symbol).copied().flatten()?))
        })
        .collect();
    longest_increasing_chain(&pairs)
}

/// Longest subsequence of `pairs` (sorted by first component) increasing in the second, by
/// patience sorting in O(k log k).
fn longest_increasing_chain(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut pile_tops: Vec<usize> = Vec::new();
    let mut predecessor = vec![None; pairs.len()];
    for (index, &(_, gold_index)) in pairs.iter().enumerate() {
        let pile = pile_tops.partition_point(|&top| pairs[top].1 < gold_index);
        predecessor[index] = pile.checked_sub(1).map(|below| pile_tops[below]);
        if pile == pile_tops.len() {
            pile_tops.push(index);
        } else {
            pile_tops[pile] = index;
        }
    }
    let mut chain = Vec::with_capacity(pile_tops.len());
    let mut cursor = pile_tops.last().copied();
    while let Some(index) = cursor {
        chain.push(pairs[index]);
        cursor = predecessor[index];
    }
    chain.reverse();
    chain
}

/// Exact LCS of `page` and `gold` as matched index pairs in increasing order.
///
/// Bit `i` of row `j` is clear exactly when `L(j, i + 1) = L(j, i) + 1`, where `L(j, i)` is the
/// LCS length of the first `j` page words and the first `i` gold words (Hyyrö 2004). The
/// traceback takes the diagonal whenever the two words are equal (always optimal for LCS), else
/// moves left in the gold when the row has no step there, else up in the page.
fn bit_parallel_lcs(page: &[u32], gold: &[u32]) -> Vec<(usize, usize)> {
    let blocks = gold.len().div_ceil(64);
    let mut match_masks: HashMap<u32, Vec<u64>> = HashMap::new();
    for (index, &symbol) in gold.iter().enumerate() {
        match_masks.entry(symbol).or_insert_with(|| vec![0; blocks])[index / 64] |=
            1 << (index % 64);
    }
    let no_match = vec![0u64; blocks];
    // rows[j * blocks ..] is the bit vector after the first j page words; row 0 is all ones.
    let mut rows = vec![u64::MAX; (page.len() + 1) * blocks];
    for (j, symbol) in page.iter().enumerate() {
        let mask = match_masks.get(symbol).unwrap_or(&no_match);
        let (done, next) = rows.split_at_mut((j + 1) * blocks);
        let previous = &done[j * blocks..];
        // V' = (V + U) | (V - U) with U = V & match; U ⊆ V, so V - U is V & !match and only
        // the addition carries across blocks.
        let mut carry = false;
        for block in 0..blocks {
            let v = previous[block];
            let u = v & mask[block];
            let (sum, carry_a) = v.overflowing_add(u);
            let (sum, carry_b) = sum.overflowing_add(u64::from(carry));
            carry = carry_a || carry_b;
            next[block] = sum | (v & !mask[block]);
        }
    }
    let step_at = |j: usize, i: usize| rows[j * blocks + i / 64] & (1 << (i % 64)) == 0;
    let mut pairs = Vec::new();
    let (mut j, mut i) = (page.len(), gold.len());
    while j > 0 && i > 0 {
        if page[j - 1] == gold[i - 1] {
            pairs.push((j - 1, i - 1));
            j -= 1;
            i -= 1;
        } else if !step_at(j, i - 1) {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    pairs.reverse();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::word_tokens;
    use proptest::prelude::*;

    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    /// LCS length by the textbook quadratic table, as the reference.
    fn reference_lcs_length(a: &[&str], b: &[&str]) -> usize {
        let mut table = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                table[i][j] = if a[i - 1] == b[j - 1] {
                    table[i - 1][j - 1] + 1
                } else {
                    table[i - 1][j].max(table[i][j - 1])
                };
            }
        }
        table[a.len()][b.len()]
    }

    fn assert_is_common_subsequence(page: &[&str], gold: &[&str], matched: &[Option<usize>]) {
        let pairs: Vec<(usize, usize)> = matched
            .iter()
            .enumerate()
            .filter_map(|(p, g)| Some((p, (*g)?)))
            .collect();
        for window in pairs.windows(2) {
            assert!(window[0].1 < window[1].1, "matches cross: {pairs:?}");
        }
        for &(p, g) in &pairs {
            assert_eq!(page[p], gold[g]);
        }
    }

    #[test]
    fn words_are_lowercased_alphanumeric_runs_so_quotes_do_not_matter() {
        assert_eq!(
            word_tokens("Kosovo’s  <b>FUTURE</b>"),
            ["kosovo", "s", "b", "future", "b"]
        );
        assert_eq!(word_tokens("Kosovo?s"), word_tokens("Kosovo's"));
        assert_eq!(word_tokens("Rücker, 15-member"), ["rücker", "15", "member"]);
        assert!(word_tokens(" — … ").is_empty());
    }

    #[test]
    fn article_inside_navigation_is_matched_and_navigation_is_not() {
        let page = words("home news sport the council met today and agreed home contact");
        let gold = words("the council met today and agreed");
        let marked = align_gold_words(&page, &gold);
        let expected = [
            false, false, false, true, true, true, true, true, true, false, false,
        ];
        assert_eq!(marked, expected);
    }

    #[test]
    fn anchored_alignment_of_a_problem_larger_than_the_table_matches_the_gold() {
        // 40k × 8k = 320M cells > MAX_DP_CELLS: forces the anchor split.
        let vocabulary: Vec<String> = (0..30_000).map(|n| format!("w{n}")).collect();
        let page: Vec<&str> = (0..40_000)
            .map(|n| vocabulary[(n * 7919) % 30_000].as_str())
            .collect();
        let gold: Vec<&str> = page[10_000..18_000].to_vec();
        let matched = align_words(&page, &gold);
        assert_is_common_subsequence(&page, &gold, &matched);
        assert_eq!(matched.iter().flatten().count(), gold.len());
    }

    proptest! {
        #[test]
        fn alignment_is_a_longest_common_subsequence(
            page in prop::collection::vec(0u8..6, 0..150),
            gold in prop::collection::vec(0u8..6, 0..150),
        ) {
            let names = ["a", "b", "c", "d", "e", "f"];
            let page: Vec<&str> = page.iter().map(|&s| names[s as usize]).collect();
            let gold: Vec<&str> = gold.iter().map(|&s| names[s as usize]).collect();
            let matched = align_words(&page, &gold);
            assert_is_common_subsequence(&page, &gold, &matched);
            prop_assert_eq!(matched.iter().flatten().count(), reference_lcs_length(&page, &gold));
        }

        #[test]
        fn gold_that_is_a_subsequence_of_the_page_is_matched_word_for_word(
            page in prop::collection::vec(0u8..8, 1..300),
            keep in prop::collection::vec(any::<bool>(), 300),
        ) {
            let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
            let page: Vec<&str> = page.iter().map(|&s| names[s as usize]).collect();
            let gold: Vec<&str> = page.iter().zip(&keep).filter(|(_, k)| **k).map(|(w, _)| *w).collect();
            let marked = align_gold_words(&page, &gold);
            let marked_words: Vec<&str> =
                page.iter().zip(&marked).filter(|(_, m)| **m).map(|(w, _)| *w).collect();
            // Up to ties between equal words, the marked words are exactly the gold.
            prop_assert_eq!(marked_words, gold);
        }

        #[test]
        fn gold_sharing_no_word_with_the_page_marks_nothing(
            page in prop::collection::vec(0u8..5, 0..200),
            gold in prop::collection::vec(5u8..10, 0..200),
        ) {
            let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
            let page: Vec<&str> = page.iter().map(|&s| names[s as usize]).collect();
            let gold: Vec<&str> = gold.iter().map(|&s| names[s as usize]).collect();
            prop_assert!(align_gold_words(&page, &gold).iter().all(|m| !m));
        }
    }
}
