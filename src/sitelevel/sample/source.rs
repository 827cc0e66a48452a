//! Where the sampler's pages come from: files of a saved site (`file://` URLs) or a polite
//! crawl of one host over HTTP.

use std::path::PathBuf;
use std::time::Duration;

use url::Url;

use crate::fetch::{HttpClient, HttpOptions, PoliteSession, RedirectPolicy, USER_AGENT, is_html};
use crate::page::{Page, ParseLimits};
use crate::sitelevel::site::load_page;

/// Loads the page behind a URL; the error is a sentence naming the cause.
pub trait PageSource {
    /// Loads and parses the page at `url`; `Err` holds why it could not be used.
    fn load(&mut self, url: &Url) -> Result<Page, String>;

    /// The URL a link is known by; two links to one page must give the same URL.
    fn canonical(&self, url: &Url) -> Url {
        url.clone()
    }
}

/// Pages of a saved site: `file://` URLs, a directory meaning its `index.html`.
#[derive(Debug, Clone, Default)]
pub struct DiskSource {
    /// Size limits for parsing each saved page.
    pub limits: ParseLimits,
    /// The site's web root, for sites saved with root-absolute links (`/css/x.css`): a file
    /// URL outside this directory is taken as relative to it.
    pub root: Option<PathBuf>,
}

impl PageSource for DiskSource {
    fn canonical(&self, url: &Url) -> Url {
        let Some(root) = &self.root else {
            return url.clone();
        };
        match url.to_file_path() {
            Ok(path) if url.scheme() == "file" && !path.starts_with(root) => {
                let below_root = path.strip_prefix("/").unwrap_or(&path);
                Url::from_file_path(root.join(below_root)).unwrap_or_else(|()| url.clone())
            }
            _ => url.clone(),
        }
    }

    fn load(&mut self, url: &Url) -> Result<Page, String> {
        let mut path: PathBuf = self
            .canonical(url)
            .to_file_path()
            .map_err(|()| format!("{url} is not a local file"))?;
        if path.is_dir() {
            path.push("index.html");
        }
        load_page(&path, &self.limits)
    }
}

/// Pages of one web host, fetched politely: robots.txt is read first and obeyed, requests are
/// spaced by `delay` (or the site's `Crawl-delay`, when longer), every request has timeouts,
/// and redirects and requests never leave the host of the first URL loaded.
pub struct HttpSource {
    session: PoliteSession,
    limits: ParseLimits,
    origin: Option<String>,
}

impl HttpSource {
    /// A source that waits at least `delay` between requests and gives each request
    /// `timeout` (connect, each read and in total); same-host redirects only.
    pub fn new(delay: Duration, timeout: Duration) -> HttpSource {
        let client = HttpClient::new(HttpOptions {
            connect_timeout: timeout,
            read_timeout: timeout,
            total_timeout: timeout,
            redirects: RedirectPolicy::SameHost,
            ..HttpOptions::default()
        });
        HttpSource {
            session: PoliteSession::new(client, USER_AGENT, delay),
            limits: ParseLimits::default(),
            origin: None,
        }
    }
}

impl PageSource for HttpSource {
    fn load(&mut self, url: &Url) -> Result<Page, String> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("{url} is not an http(s) URL"));
        }
        let origin = url.origin().ascii_serialization();
        match &self.origin {
            Some(first) if *first != origin => {
                return Err(format!("{url} is on another host than {first}"));
            }
            Some(_) => {}
            None => self.origin = Some(origin),
        }
        // robots.txt that cannot be read forbids everything (RFC 9309 §2.3.1.4).
        let robots = self
            .session
            .robots_for(url, false)
            .map_err(|error| error.to_string())?;
        if !robots.allows(url) {
            return Err(format!("robots.txt disallows {url}"));
        }
        let response = self.session.get(url).map_err(|error| error.to_string())?;
        if !(200..300).contains(&response.status) {
            return Err(format!("HTTP status {}", response.status));
        }
        if !is_html(response.header("content-type"), &response.body) {
            return Err("not an HTML page".to_owned());
        }
        Page::parse(
            &response.body,
            Some(response.url.clone()),
            response.charset.as_deref(),
            &self.limits,
        )
        .map_err(|error| error.to_string())
    }
}
