//! Fuzzing harnesses: one function per fuzz target, taking arbitrary bytes. They live in the
//! library, not in `fuzz/`, so that the same code runs under libFuzzer (`fuzz/fuzz_targets/*`,
//! nightly, `cargo fuzz run NAME`) and on stable in `tests/fuzz_corpus_replay.rs`, which feeds
//! every checked-in corpus file through it; being part of the crate, it is compiled, linted and
//! tested on every build, so it cannot drift from the API it drives. Not a stable API.
//!
//! A harness fails by panicking. Besides "no panic, no hang, bounded memory" in the code under
//! test, each one checks what the input's reader promises: a WARC file streamed record by record
//! yields what reading it whole does, and the same bytes gzip-compressed read the same; both
//! exact smoothing algorithms reach the same optimum; a model that loads scores a page and
//! serializes to JSON that loads back equal; a page that parses can be scored; a gold text's
//! alignment to a page is a common subsequence.
//!
//! Inputs over [`MAX_INPUT_BYTES`] are ignored: the paper's smoothing table and the word
//! alignment grow faster than the input, and a large corpus file must not turn a replay into a
//! stress test.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use flate2::Compression;
use flate2::write::GzEncoder;
use url::Url;

use crate::eval::datasets::{
    big9, cleaneval, dragnet, kreuzer, l3s_gn1, native, read_annotated_html, read_gold_text,
};
use crate::eval::{
    BlockAnnotation, EvalError, Gold, L3sMapping, MainText, align_words, main_text_words,
    page_truth,
};
use crate::fetch::{FetchError, Robots, USER_AGENT, WarcPage, parse_warc, stream_warc};
use crate::layout::DocumentOrderLayout;
use crate::model::TemplateModel;
use crate::model::card::card_facts;
use crate::page::{PageSource, ParseLimits, SerializeOptions, serialize};
use crate::params::ValidParams;
use crate::pipeline::{lay_out_page, score_laid_out};
use crate::smooth::{Algorithm, SmoothingProblem, smooth_with};
use crate::text::word_tokens;

/// Longest input a harness reads (longer ones are ignored): 1 MiB, far above the fuzzers'
/// `-max_len` (see `fuzz/README.md`), and small enough that the quadratic parts (the paper's
/// smoothing table, word alignment) stay quick.
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// A harness: the input, and a scratch directory for the readers that take a path.
pub type Harness = fn(&[u8], &Path);

/// The fuzz targets, by the name of their `fuzz/fuzz_targets/NAME.rs` and `fuzz/corpus/NAME/`.
pub const TARGETS: &[(&str, Harness)] = &[
    ("page", |data, _| page(data)),
    ("warc", warc),
    ("smoothing", |data, _| smoothing(data)),
    ("model", |data, _| model(data)),
    ("robots", |data, _| robots(data)),
    ("eval_annotations", eval_annotations),
];

/// The address every fuzzed page and robots.txt is read under, for link resolution.
const PAGE_URL: &str = "https://example.org/section/page.html";

/// The built-in model, parsed once: parsing it is most of the cost of a small page.
static BUILTIN_MODEL: LazyLock<TemplateModel> =
    LazyLock::new(|| TemplateModel::builtin().expect("the built-in model loads"));

/// Page decode and parse, then every stage after layout with document-order boxes (no
/// browser): features, model, smoothing, segmentation and the text stage, main text, metadata
/// (its URLs absolute http(s), its language a bare code, its date ISO 8601). An input
/// starting with a `charset=LABEL` line is read as a page served with that HTTP charset.
///
/// # Panics
///
/// When a page that parses cannot be scored, or any stage panics.
pub fn page(data: &[u8]) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let (http_charset, bytes) = match data.strip_prefix(b"charset=") {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let label = String::from_utf8_lossy(&rest[..end]).into_owned();
            (Some(label), &rest[(end + 1).min(rest.len())..])
        }
        None => (None, data),
    };
    let url = Url::parse(PAGE_URL).expect("a valid URL");
    let source = PageSource::from_bytes(bytes.to_vec(), Some(url), http_charset);
    let Ok(laid_out) = lay_out_page(&mut DocumentOrderLayout, &source, &ParseLimits::default())
    else {
        return;
    };
    let options = SerializeOptions {
        node_id_attribute: Some("data-pagelevel-id"),
        base_href: Some("assets/"),
    };
    let tagged = serialize(&laid_out.page.dom, &options);
    assert!(tagged.starts_with("<!DOCTYPE html>"));
    let params = ValidParams::default();
    let scored = score_laid_out(laid_out, &BUILTIN_MODEL, &params)
        .unwrap_or_else(|error| panic!("a page that parses cannot be scored: {error}"));
    let templateness = &scored.segmented.templateness;
    assert_eq!(templateness.len(), scored.laid_out.page.dom.len());
    assert!(
        templateness.iter().all(|t| (0.0..=1.0).contains(t)),
        "templateness outside [0, 1]"
    );
    let metadata = &scored.metadata;
    for url in [&metadata.canonical_url, &metadata.image]
        .into_iter()
        .flatten()
    {
        assert!(
            url.starts_with("http://") || url.starts_with("https://"),
            "metadata URL {url}"
        );
    }
    assert!(metadata.language.as_ref().is_none_or(|code| {
        (2..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_lowercase())
    }));
    assert!(metadata.published.as_ref().is_none_or(|date| {
        date.len() >= 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-'
    }));
}

/// The WARC reader over arbitrary bytes: [`parse_warc`] (the archive read whole), the same
/// bytes streamed from a file by [`stream_warc`], and, for plain input, the bytes compressed
/// as two gzip members split mid-stream.
///
/// # Panics
///
/// When the stream disagrees with the whole read (pages, their order, the final error), or the
/// compressed archive reads differently from the plain one.
pub fn warc(data: &[u8], scratch: &Path) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let name = Path::new("fuzz.warc");
    let whole = parse_warc(data, name);

    let file = scratch.join("fuzz.warc");
    std::fs::write(&file, data).expect("the scratch directory is writable");
    let streamed: Vec<Result<WarcPage, FetchError>> = stream_warc(&file)
        .expect("a file just written opens")
        .collect();
    // Pages and per-record problems in archive order, then perhaps one error that ends it.
    let (streamed, stream_end) = match streamed.split_last() {
        Some((Err(error), rest))
            if matches!(
                error,
                FetchError::WarcTruncated { .. } | FetchError::NotWarc { .. }
            ) =>
        {
            (rest, Some(error))
        }
        _ => (&streamed[..], None),
    };
    let mut stream_pages: Vec<&WarcPage> = Vec::new();
    let mut stream_problems: Vec<(u64, u64)> = Vec::new();
    for item in streamed {
        match item {
            Ok(page) => stream_pages.push(page),
            Err(
                FetchError::WarcResponseUnreadable { record, offset, .. }
                | FetchError::WarcRecordDamaged { record, offset, .. },
            ) => stream_problems.push((*record, *offset)),
            Err(error) => panic!("only the last item ends the stream: {error}"),
        }
    }
    match &whole {
        Ok(scan) => {
            assert_eq!(
                stream_pages,
                scan.pages.iter().collect::<Vec<_>>(),
                "streamed pages differ from the whole read"
            );
            // Every unreadable response and every damaged record in the middle is told once.
            let mut problems: Vec<(u64, u64)> = scan
                .unreadable
                .iter()
                .map(|response| (response.record, response.offset))
                .chain(
                    scan.damage
                        .iter()
                        .filter(|damage| !damage.truncated)
                        .map(|damage| (damage.record, damage.offset)),
                )
                .collect();
            problems.sort_unstable();
            stream_problems.sort_unstable();
            assert_eq!(
                stream_problems, problems,
                "the stream tells other record problems than the whole read has"
            );
            let truncated = scan.damage.iter().find(|damage| damage.truncated);
            match (truncated, stream_end) {
                (None, None) => {}
                (
                    Some(damage),
                    Some(FetchError::WarcTruncated {
                        record,
                        offset,
                        cause,
                        ..
                    }),
                ) => assert_eq!(
                    (damage.record, damage.offset, &damage.cause),
                    (*record, *offset, cause),
                    "the stream ends at another truncation"
                ),
                (truncated, end) => {
                    panic!("whole read truncated at {truncated:?}, stream ended with {end:?}")
                }
            }
        }
        Err(FetchError::NotWarc { .. }) => assert!(
            stream_pages.is_empty() && matches!(stream_end, Some(FetchError::NotWarc { .. })),
            "the whole read says not a WARC, the stream does not"
        ),
        Err(error) => panic!("reading bytes in memory failed: {error}"),
    }

    // The reader detects gzip by its magic bytes; input that starts with them is gzip already.
    if !data.starts_with(&[0x1f, 0x8b]) {
        let compressed = gzip_in_two_members(data);
        let unzipped = parse_warc(compressed.as_slice(), name);
        match (&whole, &unzipped) {
            (Ok(plain), Ok(unzipped)) => assert_eq!(
                plain, unzipped,
                "the archive reads differently when gzip-compressed"
            ),
            (Err(FetchError::NotWarc { .. }), Err(FetchError::NotWarc { .. })) => {}
            (plain, unzipped) => {
                panic!("plain read {plain:?}, gzip-compressed read {unzipped:?}")
            }
        }
    }
}

/// `data` as two concatenated gzip members, split in the middle (a member boundary inside a
/// record, which real archives never have but the reader must not notice).
fn gzip_in_two_members(data: &[u8]) -> Vec<u8> {
    let (first, second) = data.split_at(data.len() / 2);
    let mut compressed = Vec::new();
    for part in [first, second] {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(part).expect("writing to memory");
        compressed.extend(encoder.finish().expect("writing to memory"));
    }
    compressed
}

/// The JSON of `pagelevel smooth`, solved by both exact algorithms.
///
/// # Panics
///
/// When a solution is not isotone, its cost is not what it reports, a constant solution is
/// cheaper, or the two algorithms' optima differ.
pub fn smoothing(data: &[u8]) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let Ok(problem) = SmoothingProblem::from_json(data) else {
        return;
    };
    // Costs are sums of weighted distances and penalties; rounding is relative to their scale.
    let scale: f64 = problem.weight().iter().sum::<f64>() + problem.penalty().iter().sum::<f64>();
    let tolerance = 1e-9 * scale.max(1.0);
    let mut optima = Vec::new();
    for algorithm in [Algorithm::Fast, Algorithm::Paper] {
        let Ok(solution) = smooth_with(&problem, algorithm) else {
            // Refused for its size, with an error saying so: the guard under test.
            continue;
        };
        assert!(
            problem.is_isotone(&solution.smoothed),
            "{algorithm:?}: a child below its parent"
        );
        assert_eq!(solution.sections, problem.sections_of(&solution.smoothed));
        if scale.is_finite() {
            let recomputed = problem.cost_of(&solution.smoothed);
            assert!(
                (solution.cost - recomputed).abs() <= tolerance,
                "{algorithm:?}: reported cost {} but the solution costs {recomputed}",
                solution.cost
            );
            // Any constant is isotone, so no optimum costs more than the best of them tried.
            for constant in [0.0, problem.score()[0], 1.0] {
                let flat = problem.cost_of(&vec![constant; problem.len()]);
                assert!(
                    solution.cost <= flat + tolerance,
                    "{algorithm:?}: cost {} above the constant {constant}'s {flat}",
                    solution.cost
                );
            }
        }
        optima.push((algorithm, solution.cost));
    }
    if let [(_, fast), (_, paper)] = optima[..]
        && scale.is_finite()
    {
        assert!(
            (fast - paper).abs() <= tolerance,
            "fast optimum {fast} differs from the paper's {paper}"
        );
    }
}

/// A model file: loaded and checked; a model that loads must score a small page, give its
/// model card, and serialize to JSON that loads back equal.
///
/// # Panics
///
/// When a model that passed its checks fails any of these.
pub fn model(data: &[u8]) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(model) = TemplateModel::from_json(text, "fuzz.json") else {
        return;
    };
    card_facts(&model, "fuzz.json");
    let source = PageSource::from_bytes(SMALL_PAGE.as_bytes().to_vec(), None, None);
    let laid_out = lay_out_page(&mut DocumentOrderLayout, &source, &ParseLimits::default())
        .expect("the small page parses");
    let scored = score_laid_out(laid_out, &model, &ValidParams::default())
        .unwrap_or_else(|error| panic!("a model that loads cannot score a page: {error}"));
    assert!(
        scored
            .segmented
            .templateness
            .iter()
            .all(|t| (0.0..=1.0).contains(t))
    );
    let saved = serde_json::to_string(&model).expect("a loaded model serializes");
    let reloaded = TemplateModel::from_json(&saved, "saved.json")
        .unwrap_or_else(|error| panic!("a saved model does not load: {error}"));
    assert_eq!(reloaded, model, "a saved model loads back different");
}

/// The page [`model`] scores: a header, navigation, an article and a footer.
const SMALL_PAGE: &str = "<html><head><title>T</title></head><body><header>Site</header>\
    <nav><a href='/'>Home</a> <a href='/b'>B</a></nav><article><h1>Rain</h1><p>It rained \
    all day in the valley, and the river rose by a metre.</p></article><footer>(c)</footer>\
    </body></html>";

/// robots.txt as the crawler reads it (bytes decoded lossily), asked about a few fixed paths
/// and about every path the file itself names in its first lines.
pub fn robots(data: &[u8]) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let robots = Robots::parse(&text, USER_AGENT);
    robots.crawl_delay();
    let site = Url::parse(PAGE_URL).expect("a valid URL");
    let named = text
        .lines()
        .take(200)
        .filter_map(|line| line.split_once(':').map(|(_, value)| value.trim()));
    let fixed = [
        "/",
        "/robots.txt",
        "/a/b.html?q=1&r=%2f",
        "/caf%C3%A9/menu",
        "/café",
    ];
    for path in fixed.into_iter().chain(named) {
        if let Ok(url) = site.join(path) {
            robots.allows(&url);
        }
    }
}

/// Page words [`eval_annotations`] aligns gold to. The readers are what it fuzzes; aligning
/// all of a 64 KiB input's words to each gold (twice) took most of its time, and the
/// alignment has its own property tests (`eval::align`).
const MAX_PAGE_WORDS: usize = 2_000;

/// The evaluation sets' gold readers over one input, as every file they read: gold text
/// (decoding, CleanEval markers, Dragnet's comments marker), annotated HTML (L3S-GN1 classes,
/// Kreuzer blocks, native `data-pagelevel` marks), the manifests (native `labels.json`,
/// Kreuzer `meta.json`, Big9 `pages.tsv`), each gold then aligned to the input's words as
/// page words.
///
/// # Panics
///
/// When an alignment is not a common subsequence.
pub fn eval_annotations(data: &[u8], scratch: &Path) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let written = |relative: &str| -> PathBuf {
        let path = scratch.join(relative);
        let folder = path.parent().expect("a file in a folder");
        std::fs::create_dir_all(folder).expect("the scratch directory is writable");
        std::fs::write(&path, data).expect("the scratch directory is writable");
        path
    };
    let gold_path = written("gold.txt");
    let page_path = written("page.html");
    let page_words = word_tokens(&String::from_utf8_lossy(data));
    let page_words: Vec<&str> = page_words
        .iter()
        .take(MAX_PAGE_WORDS)
        .map(String::as_str)
        .collect();

    let text = read_gold_text(&gold_path).expect("the file just written reads");
    let (_, cleaneval_content) = cleaneval::parse_cleaneval_gold(&text);
    let (article, comments) = dragnet::split_comments(&text);
    let blocks = l3s_gn1::labelled_blocks(
        &read_annotated_html(&page_path).expect("the file just written reads"),
    );
    let golds = [
        Gold::MainText(MainText {
            content: cleaneval_content,
            comments: None,
        }),
        Gold::MainText(MainText {
            content: article,
            comments,
        }),
        Gold::TextBlocks(blocks),
        Gold::Blocks(BlockAnnotation {
            annotated_path: page_path.clone(),
            block_types: BTreeMap::new(),
        }),
        Gold::MarkedElements {
            annotated_path: page_path.clone(),
        },
    ];
    for gold in &golds {
        check_alignment(&page_words, gold);
    }

    // The manifests: the input as each one, beside a page and a gold file a manifest may name.
    let manifest = written("native/labels.json");
    std::fs::copy(&page_path, scratch.join("native/page.html")).expect("scratch is writable");
    std::fs::copy(&gold_path, scratch.join("native/gold.txt")).expect("scratch is writable");
    let loaded = [
        native::load(&manifest),
        kreuzer::load(&page_folder(written("kreuzer/page/meta.json"), &page_path)),
        big9::load(written("big9/pages.tsv").parent().expect("in a folder")),
    ];
    for gold in loaded.into_iter().flatten().flatten().map(|page| page.gold) {
        check_alignment(&page_words, &gold);
    }
}

/// The dataset root two levels above a page folder's `meta.json`, after copying the page there
/// as the folder's `index.blocks.html`.
fn page_folder(meta: PathBuf, page: &Path) -> PathBuf {
    let folder = meta.parent().expect("in a folder");
    std::fs::copy(page, folder.join("index.blocks.html")).expect("scratch is writable");
    folder.parent().expect("in a folder").to_path_buf()
}

/// Aligns `gold`'s words to `page_words` and checks the alignment is a common subsequence.
fn check_alignment(page_words: &[&str], gold: &Gold) {
    let truth = match page_truth(page_words, gold, L3sMapping::Standard) {
        Ok(truth) => truth,
        Err(EvalError::Read { .. }) => return,
        Err(error) => panic!("the gold words of a page failed: {error}"),
    };
    assert_eq!(truth.truth.len(), page_words.len());
    let Ok(gold_words) = main_text_words(gold) else {
        return;
    };
    let gold_refs: Vec<&str> = gold_words.iter().map(String::as_str).collect();
    let matched = align_words(page_words, &gold_refs);
    let mut last = None;
    for (page_index, gold_index) in matched.iter().enumerate() {
        let Some(gold_index) = *gold_index else {
            continue;
        };
        assert_eq!(page_words[page_index], gold_refs[gold_index]);
        assert!(
            last.is_none_or(|last| gold_index > last),
            "the alignment goes back in the gold"
        );
        last = Some(gold_index);
    }
}
