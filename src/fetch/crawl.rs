//! A polite crawler for one site, and single-page fetching.
//!
//! [`crawl`] walks the start URL's host breadth-first through `<a href>` and `<area href>`
//! links, asks robots.txt before every URL, waits between requests (the configured delay or the
//! site's `Crawl-delay`, whichever is longer), and stops after `max_fetches` requests. From the
//! HTML pages reached it then draws `max_pages` at random with a seed, as the paper samples 200
//! random pages per site for its site-level labels (Chakrabarti et al., WWW 2007, §5), so the
//! sample is not biased towards the pages nearest the home page.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::thread;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use url::Url;

use super::http::{HttpClient, HttpOptions, HttpResponse, RedirectPolicy};
use super::{FetchError, FetchedPage, Robots, USER_AGENT, is_html};
use crate::page::{Page, ParseLimits};

/// What a crawl may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlOptions {
    /// Most pages returned, drawn at random from the HTML pages reached.
    pub max_pages: usize,
    /// Most page requests sent (robots.txt requests are not counted).
    pub max_fetches: usize,
    /// Least time between the end of one request and the start of the next.
    pub delay: Duration,
    /// Limit for connecting, for each read, and for each whole request.
    pub timeout: Duration,
    /// Seed of the random page sample.
    pub seed: u64,
    /// Sent as `User-Agent`; its product token selects the robots.txt group.
    pub user_agent: String,
}

impl Default for CrawlOptions {
    fn default() -> Self {
        CrawlOptions {
            max_pages: 200,
            max_fetches: 1_000,
            delay: Duration::from_secs(1),
            timeout: Duration::from_secs(30),
            seed: 0,
            user_agent: USER_AGENT.to_string(),
        }
    }
}

impl CrawlOptions {
    fn http_options(&self, max_redirects: u32, redirects: RedirectPolicy) -> HttpOptions {
        HttpOptions {
            connect_timeout: self.timeout,
            read_timeout: self.timeout,
            total_timeout: self.timeout,
            max_redirects,
            redirects,
            user_agent: self.user_agent.clone(),
            ..HttpOptions::default()
        }
    }
}

/// Fetches one HTML page, following up to 5 redirects to any host. robots.txt is not consulted:
/// this is one request a person asked for, as a browser makes it.
pub fn fetch_page(url: &Url, options: &CrawlOptions) -> Result<FetchedPage, FetchError> {
    let client = HttpClient::new(options.http_options(5, RedirectPolicy::AnyHost));
    let response = client.get(url)?;
    html_page(response)
}

/// Crawls the start URL's host and returns at most `max_pages` of its HTML pages, in the order
/// they were reached. `progress` is told each URL just before it is requested.
///
/// Fails only when the start URL itself cannot be fetched as an HTML page, or the site's
/// robots.txt cannot be read or forbids the start URL; later failures just skip that URL.
pub fn crawl(
    start: &Url,
    options: &CrawlOptions,
    progress: &mut dyn FnMut(&Url),
) -> Result<Vec<FetchedPage>, FetchError> {
    let client = HttpClient::new(options.http_options(0, RedirectPolicy::SameHost));
    let mut session = PoliteSession::new(client, &options.user_agent, options.delay);
    let mut frontier = Frontier::new(start)?;
    let mut reached: Vec<FetchedPage> = Vec::new();
    let mut fetches = 0;
    while let Some(url) = frontier.next() {
        if fetches == options.max_fetches {
            break;
        }
        let is_start = fetches == 0;
        if !session.robots_for(&url, is_start)?.allows(&url) {
            if is_start {
                return Err(FetchError::DisallowedByRobots {
                    url: url.to_string(),
                    user_agent: options.user_agent.clone(),
                });
            }
            continue;
        }
        progress(&url);
        fetches += 1;
        let response = match session.get(&url) {
            Ok(response) => response,
            Err(error) if is_start => return Err(error),
            Err(_) => continue,
        };
        if let Some(target) = response.redirect_target() {
            if is_start {
                // `http://site/` → `https://www.site/` is still the site the user named.
                frontier.adopt_host(&target);
            }
            frontier.push(target);
            continue;
        }
        match html_page(response) {
            Ok(page) => {
                frontier.push_links_of(&page);
                reached.push(page);
            }
            Err(error) if is_start => return Err(error),
            Err(_) => {}
        }
    }
    Ok(sample(reached, options.max_pages, options.seed))
}

/// A 200 HTML response as a page.
fn html_page(response: HttpResponse) -> Result<FetchedPage, FetchError> {
    if response.status != 200 {
        return Err(FetchError::Status {
            url: response.url.to_string(),
            status: response.status,
        });
    }
    let content_type = response.header("content-type");
    if !is_html(content_type, &response.body) {
        return Err(FetchError::NotHtml {
            url: response.url.to_string(),
            content_type: content_type.unwrap_or("unknown").to_string(),
        });
    }
    Ok(FetchedPage {
        url: response.url,
        bytes: response.body,
        charset: response.charset,
    })
}

/// `max_pages` of the pages, drawn with the seed, kept in crawl order.
fn sample(pages: Vec<FetchedPage>, max_pages: usize, seed: u64) -> Vec<FetchedPage> {
    if pages.len() <= max_pages {
        return pages;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut chosen = rand::seq::index::sample(&mut rng, pages.len(), max_pages).into_vec();
    chosen.sort_unstable();
    let mut chosen = chosen.into_iter().peekable();
    pages
        .into_iter()
        .enumerate()
        .filter_map(|(index, page)| {
            (chosen.peek() == Some(&index)).then(|| {
                chosen.next();
                page
            })
        })
        .collect()
}

/// The one polite HTTP session every fetching command uses: requests spaced by a delay (or
/// a site's `Crawl-delay`, when longer), robots.txt read once per origin and obeyed.
pub struct PoliteSession {
    client: HttpClient,
    user_agent: String,
    configured_delay: Duration,
    delay: Duration,
    last_request_end: Option<Instant>,
    robots: BTreeMap<String, Robots>,
}

impl PoliteSession {
    /// A session sending requests with `client`, as `user_agent` (its product token selects
    /// the robots.txt group), at least `delay` apart.
    pub fn new(client: HttpClient, user_agent: &str, delay: Duration) -> PoliteSession {
        PoliteSession {
            client,
            user_agent: user_agent.to_string(),
            configured_delay: delay,
            delay,
            last_request_end: None,
            robots: BTreeMap::new(),
        }
    }

    /// Sends one GET after the politeness delay. robots.txt is the caller's to ask first
    /// ([`PoliteSession::robots_for`]).
    pub fn get(&mut self, url: &Url) -> Result<HttpResponse, FetchError> {
        if let Some(end) = self.last_request_end {
            let next = end + self.delay;
            let now = Instant::now();
            if next > now {
                thread::sleep(next - now);
            }
        }
        let response = self.client.get(url);
        self.last_request_end = Some(Instant::now());
        response
    }

    /// The robots.txt rules of the URL's origin, fetched on first use (RFC 9309 §2.3: 4xx
    /// allows everything; 5xx or no answer forbids everything — for the start origin that is
    /// an error, since the crawl could not do anything).
    pub fn robots_for(&mut self, url: &Url, is_start: bool) -> Result<&Robots, FetchError> {
        let origin = url.origin().ascii_serialization();
        if !self.robots.contains_key(&origin) {
            let robots = self.fetch_robots(url, &origin, is_start)?;
            if let Some(crawl_delay) = robots.crawl_delay() {
                self.delay = self.configured_delay.max(crawl_delay).max(self.delay);
            }
            self.robots.insert(origin.clone(), robots);
        }
        Ok(&self.robots[&origin])
    }

    fn fetch_robots(
        &mut self,
        url: &Url,
        origin: &str,
        is_start: bool,
    ) -> Result<Robots, FetchError> {
        let unreachable = |cause: String| FetchError::RobotsUnreachable {
            origin: origin.to_string(),
            cause,
        };
        let mut robots_url = url
            .join("/robots.txt")
            .map_err(|error| unreachable(error.to_string()))?;
        // robots.txt may redirect (§2.3.1.2: follow at least five hops).
        let mut answer = self.get(&robots_url);
        for _ in 0..5 {
            match answer.as_ref().ok().and_then(HttpResponse::redirect_target) {
                Some(target) => {
                    robots_url = target;
                    answer = self.get(&robots_url);
                }
                None => break,
            }
        }
        let outcome = match answer {
            Ok(response) if (200..300).contains(&response.status) => Ok(Robots::parse(
                &String::from_utf8_lossy(&response.body),
                &self.user_agent,
            )),
            Ok(response) if (400..500).contains(&response.status) => Ok(Robots::allow_all()),
            Ok(response) => Err(unreachable(format!("HTTP {}", response.status))),
            Err(error) => Err(unreachable(error.to_string())),
        };
        match outcome {
            Err(error) if is_start => Err(error),
            Err(_) => Ok(Robots::disallow_all()),
            Ok(robots) => Ok(robots),
        }
    }
}

/// Path endings that are never HTML pages; not requesting them saves the site requests.
const NOT_PAGES: &[&str] = &[
    "css", "js", "mjs", "json", "xml", "rss", "atom", "txt", "csv", "png", "jpg", "jpeg", "gif",
    "svg", "webp", "ico", "bmp", "tif", "tiff", "pdf", "ps", "eps", "zip", "gz", "tgz", "bz2",
    "xz", "7z", "tar", "rar", "mp3", "mp4", "m4a", "avi", "mov", "webm", "ogg", "wav", "flac",
    "woff", "woff2", "ttf", "otf", "eot", "exe", "dmg", "iso", "deb", "rpm", "apk", "doc", "docx",
    "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp",
];

/// The URLs still to visit, breadth-first, each at most once, all on the site's host.
struct Frontier {
    host: String,
    queue: VecDeque<Url>,
    seen: HashSet<String>,
}

impl Frontier {
    fn new(start: &Url) -> Result<Frontier, FetchError> {
        let host = match (start.scheme(), start.host_str()) {
            ("http" | "https", Some(host)) => host.to_string(),
            _ => {
                return Err(FetchError::UnsupportedScheme {
                    url: start.to_string(),
                });
            }
        };
        let mut frontier = Frontier {
            host,
            queue: VecDeque::new(),
            seen: HashSet::new(),
        };
        frontier.push(start.clone());
        Ok(frontier)
    }

    fn next(&mut self) -> Option<Url> {
        self.queue.pop_front()
    }

    fn adopt_host(&mut self, url: &Url) {
        if let Some(host) = url.host_str() {
            self.host = host.to_string();
        }
    }

    fn push(&mut self, mut url: Url) {
        url.set_fragment(None);
        let on_site =
            matches!(url.scheme(), "http" | "https") && url.host_str() == Some(self.host.as_str());
        if on_site && !is_known_non_page(&url) && self.seen.insert(url.as_str().to_string()) {
            self.queue.push_back(url);
        }
    }

    /// Queues a page's `<a>`/`<area>` links in document order (so the crawl is deterministic).
    fn push_links_of(&mut self, fetched: &FetchedPage) {
        let limits = ParseLimits::default();
        let Ok(page) = Page::parse(
            &fetched.bytes,
            Some(fetched.url.clone()),
            fetched.charset.as_deref(),
            &limits,
        ) else {
            return;
        };
        for element in &page.dom.elements {
            if let Some(link) = element
                .link
                .as_deref()
                .and_then(|link| Url::parse(link).ok())
            {
                self.push(link);
            }
        }
    }
}

fn is_known_non_page(url: &Url) -> bool {
    let last_segment = url.path().rsplit('/').next().unwrap_or_default();
    last_segment
        .rsplit_once('.')
        .is_some_and(|(_, extension)| NOT_PAGES.contains(&extension.to_ascii_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str) -> FetchedPage {
        FetchedPage {
            url: Url::parse("http://example.org/")
                .and_then(|base| base.join(path))
                .expect("a valid test URL"),
            bytes: Vec::new(),
            charset: None,
        }
    }

    #[test]
    fn sampling_keeps_crawl_order_and_is_fixed_by_the_seed() {
        let pages: Vec<FetchedPage> = (0..50).map(|i| page(&format!("/{i}"))).collect();
        let first = sample(pages.clone(), 10, 7);
        let again = sample(pages.clone(), 10, 7);
        let other = sample(pages.clone(), 10, 8);
        assert_eq!(first, again);
        assert_ne!(first, other);
        assert_eq!(first.len(), 10);
        let positions: Vec<usize> = first
            .iter()
            .map(|chosen| {
                pages
                    .iter()
                    .position(|p| p == chosen)
                    .expect("from the input")
            })
            .collect();
        assert!(positions.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn sampling_fewer_pages_than_the_limit_keeps_them_all() {
        let pages = vec![page("/a"), page("/b")];
        assert_eq!(sample(pages.clone(), 200, 0), pages);
    }

    #[test]
    fn the_frontier_keeps_one_host_drops_fragments_and_non_pages() {
        let start = Url::parse("http://example.org/").expect("a valid URL");
        let mut frontier = Frontier::new(&start).expect("an http URL");
        for link in [
            "http://example.org/#top",
            "http://example.org/a.html#section",
            "http://example.org/a.html",
            "https://example.org/b",
            "http://other.org/c",
            "mailto:someone@example.org",
            "http://example.org/style.CSS",
            "http://example.org/manual.pdf",
        ] {
            frontier.push(Url::parse(link).expect("a valid URL"));
        }
        let queued: Vec<String> = std::iter::from_fn(|| frontier.next())
            .map(|url| url.to_string())
            .collect();
        assert_eq!(
            queued,
            [
                "http://example.org/",
                "http://example.org/a.html",
                "https://example.org/b"
            ]
        );
    }

    #[test]
    fn a_crawl_must_start_from_an_http_url() {
        let start = Url::parse("file:///tmp/index.html").expect("a valid URL");
        let error = crawl(&start, &CrawlOptions::default(), &mut |_| {}).expect_err("not http");
        assert!(matches!(error, FetchError::UnsupportedScheme { .. }));
    }
}
