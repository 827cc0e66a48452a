//! Many pages: what a user names on the command line (files, directories, WARC files, URLs)
//! expanded into [`PageInput`]s, and [`score_batch`], which scores them on worker threads —
//! one [`Scorer`] each — and yields results in input order. A page that fails is that page's
//! error; the batch goes on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use thiserror::Error;
use url::Url;

use crate::fetch::{
    CrawlOptions, FetchError, FetchedPage, fetch_page, stream_warc, warc_stylesheets,
};
use crate::page::{ArchivedStylesheets, PageSource, html_files_under};
use crate::pipeline::{ScoreError, ScoredPage, Scorer};

/// One page to score, as the user named it.
#[derive(Debug, Clone)]
pub enum PageInput {
    /// A saved page.
    File(PathBuf),
    /// A page to fetch once (then laid out from the fetched bytes with every other request
    /// blocked).
    Url(Url),
    /// A page already fetched: a WARC record, with the stylesheets its archive holds (none when
    /// it holds none).
    Fetched(FetchedPage, Option<Arc<ArchivedStylesheets>>),
    /// A page handed over in memory (standard input): its name in messages, and the URL its
    /// links resolve against, when known.
    Record {
        /// How messages name it, e.g. `standard input line 3`.
        name: String,
        /// The page's URL, when the record gives one.
        url: Option<Url>,
        /// The page's bytes.
        bytes: Vec<u8>,
    },
}

impl PageInput {
    /// The page's name in messages and outputs: its path or URL.
    pub fn name(&self) -> String {
        match self {
            PageInput::File(path) => path.display().to_string(),
            PageInput::Url(url) => url.to_string(),
            PageInput::Fetched(page, _) => page.url.to_string(),
            PageInput::Record { name, url, .. } => {
                url.as_ref().map_or_else(|| name.clone(), Url::to_string)
            }
        }
    }
}

/// How every page of a batch is placed, whatever its input.
#[derive(Debug, Clone, Default)]
pub struct PlacementOptions {
    /// Directory served as every saved page's web root (default: the page's own directory).
    pub root: Option<PathBuf>,
    /// A `<base href>` inserted where a page has none.
    pub base_href: Option<String>,
    /// The URL links resolve against, instead of the page's own.
    pub url: Option<Url>,
}

/// Why one page of a batch failed.
#[derive(Debug, Error)]
pub enum PageFailure {
    /// A saved page cannot be read.
    #[error("cannot read {}: {cause}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        cause: std::io::Error,
    },
    /// A URL cannot be fetched.
    #[error("cannot fetch {url}: {cause}")]
    Fetch {
        /// The URL.
        url: Url,
        /// The cause.
        cause: Box<FetchError>,
    },
    /// A record of a WARC file could not be read as a page (damaged, no HTTP status line, an
    /// encoding that cannot be undone, too large), or the file could not be read further (it
    /// ends inside a record); the other pages were scored.
    #[error("{cause}")]
    Archive {
        /// The cause, naming the file, record and offset.
        cause: Box<FetchError>,
    },
    /// A line of JSON-lines input is not a page record.
    #[error("{name}: not a {{\"url\", \"html\"}} record: {cause}")]
    Record {
        /// Which line.
        name: String,
        /// What is wrong with it.
        cause: String,
    },
    /// The page was read but could not be scored.
    #[error("cannot score {name}: {cause}")]
    Score {
        /// The page's path or URL.
        name: String,
        /// The cause.
        cause: ScoreError,
    },
}

/// Why the command line could not be expanded into pages.
#[derive(Debug, Error)]
pub enum InputError {
    /// An argument starting with http(s):// is not a URL.
    #[error("{argument} is not a valid URL: {cause}")]
    BadUrl {
        /// The argument.
        argument: String,
        /// The cause.
        cause: url::ParseError,
    },
    /// A WARC file cannot be read.
    #[error(transparent)]
    Warc(#[from] FetchError),
    /// A WARC file holds no HTML response.
    #[error("{} holds no HTML responses", path.display())]
    EmptyWarc {
        /// The WARC file.
        path: PathBuf,
    },
    /// A directory cannot be listed.
    #[error("cannot list {}: {cause}", path.display())]
    Unlistable {
        /// The directory.
        path: PathBuf,
        /// The cause.
        cause: std::io::Error,
    },
    /// A directory holds no HTML file.
    #[error("{} holds no HTML pages (files ending .html, .htm or .xhtml, or those with .gz)", path.display())]
    EmptyDirectory {
        /// The directory.
        path: PathBuf,
    },
}

/// The pages named on a command line, read lazily: a WARC file is read one record at a time
/// and standard input one line at a time, so a batch of any size takes constant memory. A page
/// that cannot be read (a damaged WARC end, a bad input line) is an `Err` item; the batch goes on.
pub struct Inputs {
    pages: Box<dyn Iterator<Item = Result<PageInput, PageFailure>> + Send>,
    /// How many pages there are, when known before reading (no WARC file, no standard input).
    pub known_count: Option<usize>,
}

impl Iterator for Inputs {
    type Item = Result<PageInput, PageFailure>;

    fn next(&mut self) -> Option<Self::Item> {
        self.pages.next()
    }
}

impl Inputs {
    /// Pages given one by one (already in memory).
    pub fn of(pages: Vec<PageInput>) -> Inputs {
        Inputs {
            known_count: Some(pages.len()),
            pages: Box::new(pages.into_iter().map(Ok)),
        }
    }
}

/// How standard input holds pages, when an argument is `-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdinPages {
    /// One JSON object per line: `{"url": "…" (optional), "html": "…"}`.
    JsonLines,
    /// The whole of standard input is one HTML page.
    Html,
}

/// Expands arguments into pages: `-` (standard input, as `stdin` says), http(s) URLs, every
/// HTML response of `.warc`/`.warc.gz` files (streamed), every HTML file under directories
/// (sorted), and files as given. Files, directories and WARC headers are checked now, so a
/// mistyped name fails before any work.
pub fn expand_inputs(arguments: &[String], stdin: StdinPages) -> Result<Inputs, InputError> {
    let mut parts: Vec<Box<dyn Iterator<Item = Result<PageInput, PageFailure>> + Send>> =
        Vec::new();
    // False once a part is read lazily (a WARC file, standard input).
    let mut all_listed = true;
    let mut pages = Vec::new();
    for argument in arguments {
        if argument == "-" {
            parts.push(Box::new(std::mem::take(&mut pages).into_iter().map(Ok)));
            parts.push(stdin_pages(stdin));
            all_listed = false;
            continue;
        }
        if argument.starts_with("http://") || argument.starts_with("https://") {
            let url = Url::parse(argument).map_err(|cause| InputError::BadUrl {
                argument: argument.clone(),
                cause,
            })?;
            pages.push(PageInput::Url(url));
            continue;
        }
        let path = Path::new(argument);
        let lower = argument.to_ascii_lowercase();
        if lower.ends_with(".warc") || lower.ends_with(".warc.gz") {
            let mut records = stream_warc(path)?.peekable();
            if records.peek().is_none() {
                return Err(InputError::EmptyWarc {
                    path: path.to_path_buf(),
                });
            }
            // The archive's stylesheets, read first in a pass of their own (a sheet may be
            // archived after the pages that link it), lay its pages out as they were served.
            let stylesheets = warc_stylesheets(path)?;
            let stylesheets = (!stylesheets.is_empty()).then(|| Arc::new(stylesheets));
            parts.push(Box::new(std::mem::take(&mut pages).into_iter().map(Ok)));
            parts.push(Box::new(records.map(move |record| {
                record
                    .map(|page| PageInput::Fetched(page.into(), stylesheets.clone()))
                    .map_err(|cause| PageFailure::Archive {
                        cause: Box::new(cause),
                    })
            })));
            all_listed = false;
        } else if path.is_dir() {
            let files = html_files_under(path).map_err(|cause| InputError::Unlistable {
                path: path.to_path_buf(),
                cause,
            })?;
            if files.is_empty() {
                return Err(InputError::EmptyDirectory {
                    path: path.to_path_buf(),
                });
            }
            pages.extend(files.into_iter().map(PageInput::File));
        } else {
            pages.push(PageInput::File(path.to_path_buf()));
        }
    }
    let listed = pages.len();
    parts.push(Box::new(pages.into_iter().map(Ok)));
    Ok(Inputs {
        pages: Box::new(parts.into_iter().flatten()),
        known_count: all_listed.then_some(listed),
    })
}

/// One record of JSON-lines input.
#[derive(serde::Deserialize)]
struct InputRecord {
    #[serde(default)]
    url: Option<String>,
    html: String,
}

/// The pages of standard input, read as they come.
fn stdin_pages(
    stdin: StdinPages,
) -> Box<dyn Iterator<Item = Result<PageInput, PageFailure>> + Send> {
    use std::io::{BufRead, Read};
    match stdin {
        StdinPages::Html => Box::new(std::iter::once_with(|| {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map(|_| PageInput::Record {
                    name: "standard input".into(),
                    url: None,
                    bytes,
                })
                .map_err(|cause| PageFailure::Read {
                    path: PathBuf::from("-"),
                    cause,
                })
        })),
        StdinPages::JsonLines => Box::new(
            std::io::BufReader::new(std::io::stdin())
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.as_ref().is_ok_and(|line| line.trim().is_empty()))
                .map(|(index, line)| {
                    let name = format!("standard input line {}", index + 1);
                    let line = line.map_err(|cause| PageFailure::Read {
                        path: PathBuf::from("-"),
                        cause,
                    })?;
                    let record: InputRecord =
                        serde_json::from_str(&line).map_err(|cause| PageFailure::Record {
                            name: name.clone(),
                            cause: cause.to_string(),
                        })?;
                    let url = match record.url.as_deref().map(Url::parse).transpose() {
                        Ok(url) => url,
                        Err(cause) => {
                            return Err(PageFailure::Record {
                                name,
                                cause: format!("\"url\" is not a URL: {cause}"),
                            });
                        }
                    };
                    Ok(PageInput::Record {
                        name,
                        url,
                        bytes: record.html.into_bytes(),
                    })
                }),
        ),
    }
}

/// The page's bytes and place: read, fetched, or taken as they are.
/// Takes the input by value: a page in memory moves into the source, it is not copied.
pub fn page_source(
    input: PageInput,
    placement: &PlacementOptions,
) -> Result<PageSource, PageFailure> {
    let mut source =
        match input {
            PageInput::File(path) => PageSource::from_file(&path, placement.root.as_deref())
                .map_err(|source| PageFailure::Read {
                    path,
                    cause: source,
                })?,
            PageInput::Url(url) => {
                let page = fetch_page(&url, &CrawlOptions::default()).map_err(|source| {
                    PageFailure::Fetch {
                        url,
                        cause: Box::new(source),
                    }
                })?;
                PageSource::from_bytes(page.bytes, Some(page.url), page.charset)
            }
            PageInput::Record { url, bytes, .. } => PageSource::from_bytes(bytes, url, None),
            PageInput::Fetched(page, stylesheets) => {
                let source = PageSource::from_bytes(page.bytes, Some(page.url), page.charset);
                match stylesheets {
                    Some(stylesheets) => source.with_stylesheets(stylesheets),
                    None => source,
                }
            }
        };
    if placement.base_href.is_some() {
        source.base_href = placement.base_href.clone();
    }
    if let Some(url) = &placement.url {
        source.url = Some(url.clone());
    }
    Ok(source)
}

/// Reads (or fetches) and scores one page.
pub fn score_input(
    scorer: &mut Scorer,
    input: PageInput,
    placement: &PlacementOptions,
) -> Result<ScoredPage, PageFailure> {
    let name = input.name();
    let source = page_source(input, placement)?;
    scorer
        .score(&source)
        .map_err(|cause| PageFailure::Score { name, cause })
}

/// One page's result in a batch.
#[derive(Debug)]
pub struct PageResult {
    /// Position of the page in the input.
    pub index: usize,
    /// The page's path or URL.
    pub name: String,
    /// The scored page, or why it failed.
    pub result: Result<ScoredPage, PageFailure>,
}

/// Pages waiting or in work per worker: enough to keep every worker busy while the consumer
/// writes, few enough that memory stays constant however long the input.
const IN_FLIGHT_PER_WORKER: usize = 4;

/// Scores `inputs` with one worker thread per scorer; results come in input order, one page at
/// a time, while later pages are scored. Inputs are pulled lazily, so a stream of any length
/// takes constant memory.
pub fn score_batch<I>(
    inputs: I,
    scorers: Vec<Scorer>,
    placement: PlacementOptions,
) -> ScoredPages<I::IntoIter>
where
    I: IntoIterator<Item = Result<PageInput, PageFailure>>,
{
    let workers = scorers.len().max(1);
    let (work_sender, work_receiver) = sync_channel::<(usize, PageInput)>(workers);
    let (result_sender, results) = sync_channel::<PageResult>(workers * IN_FLIGHT_PER_WORKER);
    let work_receiver = Arc::new(Mutex::new(work_receiver));
    let placement = Arc::new(placement);
    let threads = scorers
        .into_iter()
        .map(|mut scorer| {
            let (work, results, placement) = (
                Arc::clone(&work_receiver),
                result_sender.clone(),
                Arc::clone(&placement),
            );
            std::thread::spawn(move || {
                loop {
                    // The lock is held only while taking the next page.
                    let next = work.lock().map(|receiver| receiver.recv());
                    let Ok(Ok((index, input))) = next else { break };
                    let name = input.name();
                    let result = score_input(&mut scorer, input, &placement);
                    let done = PageResult {
                        index,
                        name,
                        result,
                    };
                    if results.send(done).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    ScoredPages {
        inputs: inputs.into_iter(),
        work: Some(work_sender),
        results,
        waiting: BTreeMap::new(),
        pending: None,
        sent: 0,
        next: 0,
        capacity: workers * IN_FLIGHT_PER_WORKER,
        threads,
    }
}

/// The results of [`score_batch`], in input order.
pub struct ScoredPages<I: Iterator<Item = Result<PageInput, PageFailure>>> {
    inputs: I,
    work: Option<SyncSender<(usize, PageInput)>>,
    results: Receiver<PageResult>,
    /// Results that finished before their turn.
    waiting: BTreeMap<usize, PageResult>,
    /// A page taken from the input that no worker had room for yet.
    pending: Option<(usize, PageInput)>,
    sent: usize,
    next: usize,
    capacity: usize,
    threads: Vec<JoinHandle<()>>,
}

impl<I: Iterator<Item = Result<PageInput, PageFailure>>> ScoredPages<I> {
    /// Hands pages to the workers until `capacity` are in flight, every worker is busy, or
    /// the input ends; never waits for a worker.
    fn dispatch(&mut self) {
        while self.sent - self.next < self.capacity {
            let Some(work) = &self.work else { return };
            let page = match self.pending.take() {
                Some(page) => page,
                None => match self.inputs.next() {
                    Some(Ok(input)) => (self.sent, input),
                    Some(Err(failure)) => {
                        // Unreadable input: its result is ready, no worker needed.
                        let result = PageResult {
                            index: self.sent,
                            name: "input".into(),
                            result: Err(failure),
                        };
                        self.waiting.insert(self.sent, result);
                        self.sent += 1;
                        continue;
                    }
                    None => {
                        // No more input: closing the channel lets idle workers end.
                        self.work = None;
                        return;
                    }
                },
            };
            match work.try_send(page) {
                Ok(()) => self.sent += 1,
                Err(TrySendError::Full(page)) => {
                    self.pending = Some(page);
                    return;
                }
                Err(TrySendError::Disconnected(_)) => {
                    self.work = None;
                    return;
                }
            }
        }
    }
}

impl<I: Iterator<Item = Result<PageInput, PageFailure>>> Iterator for ScoredPages<I> {
    type Item = PageResult;

    fn next(&mut self) -> Option<PageResult> {
        self.dispatch();
        if self.next == self.sent {
            return None;
        }
        while !self.waiting.contains_key(&self.next) {
            // Wait for a page to finish, then keep the freed worker busy.
            let result = self.results.recv().ok()?;
            self.waiting.insert(result.index, result);
            self.dispatch();
        }
        let result = self.waiting.remove(&self.next);
        self.next += 1;
        result
    }
}

impl<I: Iterator<Item = Result<PageInput, PageFailure>>> Drop for ScoredPages<I> {
    fn drop(&mut self) {
        self.work = None;
        // Workers finish their page and see the closed channel; unread results are dropped
        // with the receiver, so no worker blocks on a full result channel.
        let (_, dead) = sync_channel(0);
        drop(std::mem::replace(&mut self.results, dead));
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
