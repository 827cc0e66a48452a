//! The network gate: a loopback HTTP proxy that every request of the browser goes through, which
//! serves the page being rendered and the files of its local web root, and refuses everything
//! else at once. Chromium is started with this proxy for all schemes, loopback included
//! (`<-loopback>`), and with host resolution disabled, so no request — top frame, iframe, image,
//! beacon, websocket — can leave, and a page whose resources would hang renders anyway: a refused
//! request fails in microseconds instead of timing out.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// Longest request head accepted; real browser request heads are a few KiB.
const MAX_REQUEST_HEAD_BYTES: usize = 64 * 1024;

/// How long a connection may take to send its request head.
const REQUEST_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Content-Security-Policy sent with a page when its scripts must not run: DevTools evaluation is
/// not page script, so our box walk still runs.
const NO_SCRIPTS_POLICY: &str = "script-src 'none'; object-src 'none'";

/// One page being rendered: served at `http://{host}{page_path}`, with the other files of the
/// host read from `web_root`.
#[derive(Debug, Clone)]
pub struct ServedPage {
    pub page_path: String,
    pub html: Arc<Vec<u8>>,
    pub web_root: Option<PathBuf>,
    pub scripts_allowed: bool,
}

#[derive(Default)]
struct GateState {
    pages: Mutex<HashMap<String, ServedPage>>,
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
        let state = Arc::new(GateState::default());
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

    /// Serves `page` under `host` until [`Gate::withdraw`] is called.
    pub fn publish(&self, host: &str, page: ServedPage) {
        if let Ok(mut pages) = self.state.pages.lock() {
            pages.insert(host.to_ascii_lowercase(), page);
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
    // Drain the header lines; nothing in them changes the answer.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
        line.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let response = match answer(method, target, state) {
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

/// The response for a proxied request, or `None` to refuse it. Only `GET`/`HEAD` of an absolute
/// `http://` URL on a published host is answered; `CONNECT` (https, wss) never is.
fn answer(method: &str, target: &str, state: &GateState) -> Option<Response> {
    if method != "GET" && method != "HEAD" {
        return None;
    }
    let url = url::Url::parse(target).ok()?;
    if url.scheme() != "http" {
        return None;
    }
    let page = state.pages.lock().ok()?.get(url.host_str()?)?.clone();
    if url.path() == page.page_path {
        return Some(Response {
            status: "200 OK",
            content_type: "text/html; charset=utf-8",
            body: page.html,
            policy: (!page.scripts_allowed).then_some(NO_SCRIPTS_POLICY),
        });
    }
    let file = local_file(page.web_root.as_deref()?, url.path(), url.query())?;
    let body = std::fs::read(&file).ok()?;
    Some(Response {
        status: "200 OK",
        content_type: content_type(&file),
        body: Arc::new(body),
        policy: None,
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
    fn a_query_kept_in_a_saved_file_name_keeps_its_content_type() {
        assert_eq!(content_type(Path::new("/x/style.css?v=2")), "text/css");
        assert_eq!(content_type(Path::new("/x/page.HTML")), "text/html");
    }
}
