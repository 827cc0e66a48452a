//! The network gate: a loopback HTTP proxy that every request of the browser goes through, which
//! serves the page being rendered and the files of its local web root, and refuses everything
//! else at once. Chromium is started with this proxy for all schemes, loopback included
//! (`<-loopback>`), and with host resolution disabled, so no request — top frame, iframe, image,
//! beacon, websocket — can leave, and a page whose resources would hang renders anyway: a refused
//! request fails in microseconds instead of timing out.
//!
//! The gate listens on a loopback port any local process can find, so what it serves is reachable
//! only under host names that carry a secret drawn when the gate starts: the browser learns each
//! name from the URL it is sent to; a process that only knows the port is refused like any other
//! outside host. With scripts off, every response carries a policy that forbids scripts, so no
//! document the page pulls in (a sibling page in a frame, an SVG) runs any; and each page may
//! load only a few documents, so frames that load their own page again end at once.
//!
//! Stylesheets archived with a page (a crawl's CSS, `PageSource::stylesheets`) are served too,
//! from memory: a URL on the page's host stands for the same path on the page's own origin,
//! and a sheet elsewhere (an `https://` URL, another host) is linked under
//! [`ARCHIVED_PREFIX`] on the page's host — the copy Chromium gets names it there
//! ([`archived_stylesheet_url`]), since no `https://` request can be answered by a proxy.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use rand::Rng;
use url::Url;

use crate::page::ArchivedStylesheets;
use crate::render::native::archived_url;

/// Longest request head accepted; real browser request heads are a few KiB.
const MAX_REQUEST_HEAD_BYTES: usize = 64 * 1024;

/// How long a connection may take to send its request head.
const REQUEST_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Content-Security-Policy sent with every response for a page whose scripts must not run (its
/// frames and their frames included: a policy binds only the document it arrives with, and
/// `srcdoc` and `data:` frames inherit their parent's). DevTools evaluation is not page script,
/// so our box walk still runs.
const NO_SCRIPTS_POLICY: &str = "script-src 'none'; object-src 'none'";

/// Documents (the page itself and the frames in it, at any depth) one page may load: a
/// Javadoc frameset needs four. Frames do not change the page's own boxes (a frame's size is its
/// element's), so the cap changes nothing measured; without it, frames that load their own page
/// under new queries (`?a`, `?b`, …) multiply up to Chromium's limit of a thousand frames
/// (8 frames a level: 597 documents, 9 s).
const MAX_DOCUMENTS_PER_PAGE: u32 = 8;

/// The domain under which pages are served: `.invalid` never resolves anywhere.
const SERVED_DOMAIN: &str = "pagelevel.invalid";

/// One page being rendered: served at `http://{host}{page_path}`, with the other files of the
/// host read from `web_root`.
#[derive(Debug, Clone)]
pub struct ServedPage {
    pub page_path: String,
    pub html: Arc<Vec<u8>>,
    pub web_root: Option<PathBuf>,
    /// The stylesheets archived with the page, and the page's own URL.
    pub stylesheets: Option<(Arc<ArchivedStylesheets>, Url)>,
    pub scripts_allowed: bool,
}

/// The path under which a page's host serves an archived stylesheet of another origin:
/// `/<prefix>/<scheme>/<host[:port]>/<path>`, so that the sheet's relative `@import`s stay
/// under it.
const ARCHIVED_PREFIX: &str = "/.pagelevel-archived";

/// Where a page served on `served_host` loads the archived stylesheet `url` from.
pub(super) fn archived_stylesheet_url(url: &Url, served_host: &str) -> Option<Url> {
    let authority = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str()?),
        None => url.host_str()?.to_string(),
    };
    let mut served = Url::parse(&format!(
        "http://{served_host}{ARCHIVED_PREFIX}/{}/{authority}{}",
        url.scheme(),
        url.path()
    ))
    .ok()?;
    served.set_query(url.query());
    Some(served)
}

/// The archived URL a request on a page's host names: undoes [`archived_stylesheet_url`], or
/// takes the path on the page's own origin.
fn archived_target(url: &Url, page_url: &Url) -> Option<Url> {
    let Some(rest) = url.path().strip_prefix(ARCHIVED_PREFIX) else {
        return archived_url(url, url.host_str()?, page_url);
    };
    let mut parts = rest.trim_start_matches('/').splitn(3, '/');
    let (scheme, authority) = (parts.next()?, parts.next()?);
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let mut target = Url::parse(&format!(
        "{scheme}://{authority}/{}",
        parts.next().unwrap_or("")
    ))
    .ok()?;
    target.set_query(url.query());
    Some(target)
}

/// A published page and how many documents it has loaded so far.
struct Publication {
    page: ServedPage,
    documents_loaded: AtomicU32,
}

struct GateState {
    /// Random hex drawn at start; part of every served host name.
    secret: String,
    pages: Mutex<HashMap<String, Arc<Publication>>>,
    hosts_named: AtomicU64,
    refused: AtomicU64,
    served: AtomicU64,
}

/// A running gate; stops accepting when dropped (its thread parks on the listener until exit).
pub struct Gate {
    address: SocketAddr,
    state: Arc<GateState>,
}

impl Gate {
    /// Binds a loopback port and starts serving in background threads.
    pub fn start() -> std::io::Result<Gate> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let address = listener.local_addr()?;
        // `rand::rng()` is a CSPRNG seeded from the operating system.
        let secret = format!("{:032x}", rand::rng().random::<u128>());
        let state = Arc::new(GateState {
            secret,
            pages: Mutex::default(),
            hosts_named: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            served: AtomicU64::new(0),
        });
        let shared = Arc::clone(&state);
        thread::Builder::new()
            .name("pagelevel-gate".into())
            .spawn(move || {
                for stream in listener.incoming().flatten() {
                    let state = Arc::clone(&shared);
                    let _ = thread::Builder::new()
                        .name("pagelevel-gate-conn".into())
                        .spawn(move || handle_connection(stream, &state));
                }
            })?;
        Ok(Gate { address, state })
    }

    /// The proxy address to give Chromium.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// A host name never used before in this run, carrying the run's secret: a fresh host per
    /// page keeps anything of one page (cache, connections) from leaking into the next.
    pub fn new_host(&self) -> String {
        let number = self.state.hosts_named.fetch_add(1, Ordering::Relaxed) + 1;
        format!("page{number}-{}.{SERVED_DOMAIN}", self.state.secret)
    }

    /// Serves `page` under `host` (from [`Gate::new_host`]) until [`Gate::withdraw`] is called.
    pub fn publish(&self, host: &str, page: ServedPage) {
        if let Ok(mut pages) = self.state.pages.lock() {
            let publication = Publication {
                page,
                documents_loaded: AtomicU32::new(0),
            };
            pages.insert(host.to_ascii_lowercase(), Arc::new(publication));
        }
    }

    /// Stops serving a host.
    pub fn withdraw(&self, host: &str) {
        if let Ok(mut pages) = self.state.pages.lock() {
            pages.remove(&host.to_ascii_lowercase());
        }
    }

    /// Requests refused so far (anything not the page or its local files).
    pub fn refused_requests(&self) -> u64 {
        self.state.refused.load(Ordering::Relaxed)
    }

    /// Requests answered from the page or its web root so far.
    pub fn served_requests(&self) -> u64 {
        self.state.served.load(Ordering::Relaxed)
    }
}

fn handle_connection(stream: TcpStream, state: &GateState) {
    let _ = stream.set_read_timeout(Some(REQUEST_READ_TIMEOUT));
    let Ok(reader_stream) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(reader_stream.take(MAX_REQUEST_HEAD_BYTES as u64));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // Of the header lines only `Accept` matters: it tells a document from a subresource.
    let mut loads_document = false;
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("accept")
        {
            loads_document = asks_for_a_document(value);
        }
        line.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let response = match answer(method, target, loads_document, state) {
        Some(response) => {
            state.served.fetch_add(1, Ordering::Relaxed);
            response
        }
        None => {
            state.refused.fetch_add(1, Ordering::Relaxed);
            Response::refused()
        }
    };
    response.write_to(stream, method == "HEAD");
}

struct Response {
    status: &'static str,
    content_type: &'static str,
    body: Arc<Vec<u8>>,
    policy: Option<&'static str>,
}

impl Response {
    fn refused() -> Response {
        Response {
            status: "403 Forbidden",
            content_type: "text/plain",
            body: Arc::new(b"blocked by pagelevel".to_vec()),
            policy: None,
        }
    }

    fn write_to(&self, mut stream: TcpStream, head_only: bool) {
        let mut head = format!(
            "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
            self.status,
            self.content_type,
            self.body.len()
        );
        if let Some(policy) = self.policy {
            head.push_str(&format!("Content-Security-Policy: {policy}\r\n"));
        }
        head.push_str("\r\n");
        let _ = stream.write_all(head.as_bytes());
        if !head_only {
            let _ = stream.write_all(&self.body);
        }
        let _ = stream.flush();
    }
}

/// True for the `Accept` value of a navigation (a top-level page or a frame): Chromium asks for
/// `text/html` first only then; images, stylesheets, scripts and `fetch` ask for something else.
fn asks_for_a_document(accept: &str) -> bool {
    accept
        .trim()
        .split([',', ';'])
        .next()
        .is_some_and(|first| first.trim().eq_ignore_ascii_case("text/html"))
}

/// The response for a proxied request, or `None` to refuse it. Only `GET`/`HEAD` of an absolute
/// `http://` URL on a published host (whose name carries the run's secret) is answered, and a
/// document only while its page is under [`MAX_DOCUMENTS_PER_PAGE`]; `CONNECT` (https, wss)
/// never is.
fn answer(method: &str, target: &str, loads_document: bool, state: &GateState) -> Option<Response> {
    if method != "GET" && method != "HEAD" {
        return None;
    }
    let url = url::Url::parse(target).ok()?;
    if url.scheme() != "http" {
        return None;
    }
    let publication = Arc::clone(state.pages.lock().ok()?.get(url.host_str()?)?);
    if loads_document
        && publication.documents_loaded.fetch_add(1, Ordering::Relaxed) >= MAX_DOCUMENTS_PER_PAGE
    {
        return None;
    }
    let page = &publication.page;
    let policy = (!page.scripts_allowed).then_some(NO_SCRIPTS_POLICY);
    if url.path() == page.page_path {
        return Some(Response {
            status: "200 OK",
            content_type: "text/html; charset=utf-8",
            body: Arc::clone(&page.html),
            policy,
        });
    }
    let file = page
        .web_root
        .as_deref()
        .and_then(|root| local_file(root, url.path(), url.query()));
    if let Some(body) = file.as_ref().and_then(|file| std::fs::read(file).ok()) {
        return Some(Response {
            status: "200 OK",
            content_type: content_type(file.as_deref()?),
            body: Arc::new(body),
            policy,
        });
    }
    let (sheets, page_url) = page.stylesheets.as_ref()?;
    let sheet = sheets
        .get(&archived_target(&url, page_url)?)
        .filter(|sheet| sheet.is_css())?;
    Some(Response {
        status: "200 OK",
        content_type: "text/css",
        body: Arc::new(sheet.css.clone()),
        policy,
    })
}

/// Maps a URL path (and query) to a file under the web root, never outside it. wget-saved
/// sites keep a query in the file name (`style.css?v=2`), so that name is tried first. The
/// native layout reads stylesheets and image sizes by the same rule.
pub(super) fn local_file(web_root: &Path, path: &str, query: Option<&str>) -> Option<PathBuf> {
    let decoded = percent_decode(path);
    let relative = decoded.trim_start_matches('/');
    let mut candidates = Vec::new();
    if let Some(query) = query {
        candidates.push(format!("{relative}?{}", percent_decode(query)));
    }
    candidates.push(relative.to_string());
    let root = web_root.canonicalize().ok()?;
    candidates.into_iter().find_map(|candidate| {
        let file = root.join(candidate).canonicalize().ok()?;
        (file.starts_with(&root) && file.is_file()).then_some(file)
    })
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = bytes
            .get(index + 1..index + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[index], hex) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                index += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

fn content_type(file: &Path) -> &'static str {
    let extension = file
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    // wget names like `style.css?v=2` have the real extension before the query.
    let name = file
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    let before_query = name.split('?').next().unwrap_or(name);
    let extension = match Path::new(before_query).extension().and_then(|e| e.to_str()) {
        Some(real) => real.to_ascii_lowercase(),
        None => extension,
    };
    match extension.as_str() {
        "css" => "text/css",
        "html" | "htm" | "xhtml" => "text/html",
        "js" | "mjs" => "text/javascript",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_outside_the_web_root_are_never_served() {
        let root = std::env::temp_dir();
        assert!(local_file(&root.join("no-such-dir"), "/x.css", None).is_none());
        assert!(local_file(&root, "/../../etc/passwd", None).is_none());
    }

    #[test]
    fn percent_escapes_decode_to_the_saved_file_name() {
        assert_eq!(
            percent_decode("/a%20b/style.css%3Fv=1"),
            "/a b/style.css?v=1"
        );
        assert_eq!(percent_decode("100%"), "100%");
    }

    #[test]
    fn only_chromium_navigations_count_as_documents() {
        let navigation = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,\
                          image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
        assert!(asks_for_a_document(navigation));
        assert!(asks_for_a_document(" TEXT/HTML"));
        assert!(!asks_for_a_document(
            "image/avif,image/webp,image/apng,image/svg+xml,*/*;q=0.8"
        ));
        assert!(!asks_for_a_document("text/css,*/*;q=0.1"));
        assert!(!asks_for_a_document("*/*"));
    }

    #[test]
    fn every_gate_names_its_hosts_with_its_own_secret() {
        let (first, second) = (Gate::start().expect("gate"), Gate::start().expect("gate"));
        let (one, two) = (first.new_host(), first.new_host());
        assert_ne!(one, two, "a fresh host per page");
        let secret = &first.state.secret;
        assert_eq!(secret.len(), 32);
        assert!(one.contains(secret.as_str()) && two.contains(secret.as_str()));
        assert_ne!(first.state.secret, second.state.secret);
    }

    /// Publishes `/index.html` with the files of `web_root` under `host` of `gate`.
    fn publish_page(gate: &Gate, host: &str, web_root: &Path, scripts_allowed: bool) {
        let page = ServedPage {
            page_path: "/index.html".into(),
            html: Arc::new(b"<p>page</p>".to_vec()),
            web_root: Some(web_root.to_path_buf()),
            stylesheets: None,
            scripts_allowed,
        };
        gate.publish(host, page);
    }

    #[test]
    fn with_scripts_off_every_file_of_the_page_forbids_scripts() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(root.path().join("frame.html"), "<script>1</script>").expect("write");
        std::fs::write(root.path().join("icon.svg"), "<svg/>").expect("write");
        let gate = Gate::start().expect("gate");
        let host = gate.new_host();
        publish_page(&gate, &host, root.path(), false);
        for path in ["/index.html", "/frame.html", "/icon.svg"] {
            let response = answer("GET", &format!("http://{host}{path}"), true, &gate.state)
                .unwrap_or_else(|| panic!("{path} is served"));
            assert_eq!(response.policy, Some(NO_SCRIPTS_POLICY), "{path}");
        }
        publish_page(&gate, &host, root.path(), true);
        let frame = format!("http://{host}/frame.html");
        let response = answer("GET", &frame, true, &gate.state).expect("served");
        assert_eq!(response.policy, None);
    }

    #[test]
    fn a_page_loads_a_bounded_number_of_documents_but_any_number_of_subresources() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(root.path().join("style.css"), "p {}").expect("write");
        let gate = Gate::start().expect("gate");
        let host = gate.new_host();
        publish_page(&gate, &host, root.path(), false);
        let page = format!("http://{host}/index.html?again");
        for _ in 0..MAX_DOCUMENTS_PER_PAGE {
            assert!(answer("GET", &page, true, &gate.state).is_some());
        }
        assert!(answer("GET", &page, true, &gate.state).is_none());
        let style = format!("http://{host}/style.css");
        for _ in 0..100 {
            assert!(answer("GET", &style, false, &gate.state).is_some());
        }
    }

    #[test]
    fn a_query_kept_in_a_saved_file_name_keeps_its_content_type() {
        assert_eq!(content_type(Path::new("/x/style.css?v=2")), "text/css");
        assert_eq!(content_type(Path::new("/x/page.HTML")), "text/html");
    }
}
