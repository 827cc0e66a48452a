//! The HTTP client and the crawler against a small HTTP server on 127.0.0.1 that serves a saved
//! site of the shared datasets (the Apache httpd manual: folders, off-site links, links to pages
//! that were not saved). Nothing here reaches beyond the loopback address.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use pagelevel::fetch::{
    CrawlOptions, FetchError, HttpClient, HttpOptions, RedirectPolicy, crawl, fetch_page,
};
use url::Url;

const SITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/datasets/sites/apache-httpd-manual"
);

/// What the test server answers: status, headers, body.
struct Answer {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    /// Held back this long before answering.
    stall: Duration,
}

impl Answer {
    fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Answer {
        Answer {
            status,
            headers: vec![("Content-Type", content_type.to_string())],
            body: body.into(),
            stall: Duration::ZERO,
        }
    }

    fn redirect(location: &str) -> Answer {
        let mut answer = Answer::new(302, "text/html", "");
        answer.headers.push(("Location", location.to_string()));
        answer
    }

    fn not_found() -> Answer {
        Answer::new(404, "text/html", "<p>not found</p>")
    }
}

type Handler = dyn Fn(&str) -> Answer + Send + Sync;

/// An HTTP/1.1 server on an ephemeral loopback port, logging every request's arrival.
struct TestServer {
    base: Url,
    log: Arc<Mutex<Vec<(Instant, String)>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    fn start(handler: impl Fn(&str) -> Answer + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding a loopback port");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let port = listener.local_addr().expect("a bound address").port();
        let base = Url::parse(&format!("http://127.0.0.1:{port}/")).expect("a valid URL");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let thread = {
            let (log, stop) = (Arc::clone(&log), Arc::clone(&stop));
            thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let (log, handler) = (Arc::clone(&log), Arc::clone(&handler));
                            thread::spawn(move || serve(stream, &log, handler.as_ref()));
                        }
                        Err(_) => thread::sleep(Duration::from_millis(2)),
                    }
                }
            })
        };
        TestServer {
            base,
            log,
            stop,
            thread: Some(thread),
        }
    }

    fn url(&self, path: &str) -> Url {
        self.base.join(path).expect("a valid path")
    }

    fn requests(&self) -> Vec<(Instant, String)> {
        self.log.lock().expect("an unpoisoned log").clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Answers requests on one connection until the client closes it.
fn serve(stream: TcpStream, log: &Mutex<Vec<(Instant, String)>>, handler: &Handler) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let Ok(reader_stream) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(reader_stream);
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let arrival = Instant::now();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
                break;
            }
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        log.lock()
            .expect("an unpoisoned log")
            .push((arrival, path.clone()));
        let answer = handler(&path);
        thread::sleep(answer.stall);
        let mut response = format!("HTTP/1.1 {} Test\r\n", answer.status);
        for (name, value) in &answer.headers {
            response.push_str(&format!("{name}: {value}\r\n"));
        }
        response.push_str(&format!("Content-Length: {}\r\n\r\n", answer.body.len()));
        let mut bytes = response.into_bytes();
        bytes.extend_from_slice(&answer.body);
        if writer.write_all(&bytes).is_err() {
            return;
        }
    }
}

/// Serves the saved site, with a robots.txt.
fn site_server(robots: &'static str) -> TestServer {
    TestServer::start(move |path| {
        if path == "/robots.txt" {
            return Answer::new(200, "text/plain", robots);
        }
        match site_file(path) {
            Some(file) => {
                let content_type = match file.extension().and_then(|e| e.to_str()) {
                    Some("html") => "text/html; charset=utf-8",
                    Some("css") => "text/css",
                    _ => "application/octet-stream",
                };
                let body = std::fs::read(&file).expect("a readable site file");
                Answer::new(200, content_type, body)
            }
            None => Answer::not_found(),
        }
    })
}

fn site_file(path: &str) -> Option<PathBuf> {
    let path = path.split(['?', '#']).next()?;
    if path.contains("..") {
        return None;
    }
    let file = Path::new(SITE).join(path.trim_start_matches('/'));
    file.is_file().then_some(file)
}

const ROBOTS: &str = "User-agent: *\nDisallow: /en/howto/\n";

fn options(max_fetches: usize, max_pages: usize, seed: u64) -> CrawlOptions {
    CrawlOptions {
        max_pages,
        max_fetches,
        delay: Duration::from_millis(20),
        timeout: Duration::from_secs(5),
        seed,
        ..CrawlOptions::default()
    }
}

#[test]
fn the_crawl_stays_on_the_host_obeys_robots_waits_and_stops_at_max_fetches() {
    let server = site_server(ROBOTS);
    let mut announced = Vec::new();
    let pages = crawl(
        &server.url("/en/index.html"),
        &options(80, 1_000, 0),
        &mut |url| announced.push(url.clone()),
    )
    .expect("the start page is served");

    assert_eq!(announced.len(), 80, "the site has more than 80 linked URLs");
    assert!(
        announced
            .iter()
            .all(|url| url.host_str() == Some("127.0.0.1"))
    );
    assert!(
        announced
            .iter()
            .all(|url| !url.path().starts_with("/en/howto/"))
    );
    assert!(announced.iter().all(|url| !url.path().ends_with(".css")));

    let requests = server.requests();
    assert_eq!(requests[0].1, "/robots.txt");
    assert_eq!(
        requests.len(),
        81,
        "robots.txt, then at most max_fetches pages"
    );
    assert!(
        requests
            .iter()
            .all(|(_, path)| !path.starts_with("/en/howto/"))
    );
    for pair in requests.windows(2) {
        let gap = pair[1].0 - pair[0].0;
        assert!(
            gap >= Duration::from_millis(20),
            "{gap:?} before {}",
            pair[1].1
        );
    }

    let reached: Vec<&str> = pages.iter().map(|page| page.url.path()).collect();
    assert_eq!(reached[..2], ["/en/index.html", "/en/bind.html"]);
    assert!(reached.len() >= 5, "{reached:?}");
    assert!(
        pages
            .iter()
            .all(|page| page.charset.as_deref() == Some("utf-8"))
    );
    let saved = pages
        .iter()
        .all(|page| site_file(page.url.path()).is_some());
    assert!(saved, "only 200 HTML responses are pages");
}

#[test]
fn the_sample_of_pages_is_fixed_by_the_seed() {
    // A generated site: the home page links to twenty pages, each linking back home.
    let server = TestServer::start(|path| {
        let links: String = match path {
            "/" => (0..20)
                .map(|n| format!("<a href='/p/{n}.html'>{n}</a>"))
                .collect(),
            _ if path.starts_with("/p/") => "<a href='/'>home</a>".to_string(),
            _ => return Answer::not_found(),
        };
        Answer::new(
            200,
            "text/html",
            format!("<html><body>{links}</body></html>"),
        )
    });
    let start = server.url("/");
    let paths = |seed| -> Vec<String> {
        crawl(&start, &options(25, 4, seed), &mut |_| {})
            .expect("the start page is served")
            .iter()
            .map(|page| page.url.path().to_string())
            .collect()
    };
    let first = paths(1);
    assert_eq!(first.len(), 4);
    assert_eq!(first, paths(1));
    assert_ne!(first, paths(2));
}

#[test]
fn a_longer_crawl_delay_in_robots_txt_spaces_requests_further() {
    let server = site_server("User-agent: pagelevel\nCrawl-delay: 0.08\n");
    crawl(
        &server.url("/en/index.html"),
        &options(4, 10, 0),
        &mut |_| {},
    )
    .expect("the start page is served");
    let requests = server.requests();
    assert_eq!(requests.len(), 5);
    for pair in requests.windows(2) {
        assert!(pair[1].0 - pair[0].0 >= Duration::from_millis(80));
    }
}

#[test]
fn a_start_page_forbidden_by_robots_is_an_error() {
    let server = site_server("User-agent: *\nDisallow: /\n");
    let error = crawl(
        &server.url("/en/index.html"),
        &options(5, 5, 0),
        &mut |_| {},
    )
    .expect_err("everything is disallowed");
    assert!(matches!(error, FetchError::DisallowedByRobots { .. }));
    assert_eq!(server.requests().len(), 1, "only robots.txt was requested");
}

#[test]
fn a_failing_robots_txt_stops_the_crawl_before_any_page() {
    let server = TestServer::start(|path| match path {
        "/robots.txt" => Answer::new(503, "text/plain", "busy"),
        _ => Answer::new(200, "text/html", "<p>page</p>"),
    });
    let error = crawl(&server.url("/"), &options(5, 5, 0), &mut |_| {})
        .expect_err("robots.txt is unavailable");
    assert!(matches!(error, FetchError::RobotsUnreachable { .. }));
}

#[test]
fn redirects_within_the_site_are_followed_as_links() {
    let server = TestServer::start(|path| match path {
        "/" => Answer::redirect("/home.html"),
        "/home.html" => Answer::new(200, "text/html", "<a href='/moved'>next</a>"),
        "/moved" => Answer::redirect("http://elsewhere.invalid/page"),
        _ => Answer::not_found(),
    });
    let pages = crawl(&server.url("/"), &options(10, 10, 0), &mut |_| {})
        .expect("the start page redirects to a page");
    let paths: Vec<&str> = pages.iter().map(|page| page.url.path()).collect();
    assert_eq!(paths, ["/home.html"]);
    let requested: Vec<String> = server.requests().into_iter().map(|(_, p)| p).collect();
    assert_eq!(requested, ["/robots.txt", "/", "/home.html", "/moved"]);
}

#[test]
fn fetch_page_follows_redirects_and_reports_the_final_url_and_charset() {
    let server = TestServer::start(|path| match path {
        "/old" => Answer::redirect("/new"),
        "/new" => Answer::new(200, "text/html; charset=windows-1252", "<p>caf\u{e9}</p>"),
        "/style.css" => Answer::new(200, "text/css", "p {}"),
        _ => Answer::not_found(),
    });
    let page = fetch_page(&server.url("/old"), &options(1, 1, 0)).expect("a page");
    assert_eq!(page.url, server.url("/new"));
    assert_eq!(page.charset.as_deref(), Some("windows-1252"));
    assert!(matches!(
        fetch_page(&server.url("/style.css"), &options(1, 1, 0)),
        Err(FetchError::NotHtml { .. })
    ));
    assert!(matches!(
        fetch_page(&server.url("/missing"), &options(1, 1, 0)),
        Err(FetchError::Status { status: 404, .. })
    ));
}

#[test]
fn the_client_refuses_off_host_redirects_and_redirect_loops() {
    let server = TestServer::start(|path| match path {
        "/away" => Answer::redirect("http://elsewhere.invalid/"),
        "/loop" => Answer::redirect("/loop"),
        _ => Answer::not_found(),
    });
    let client = HttpClient::new(HttpOptions::default());
    assert!(matches!(
        client.get(&server.url("/away")),
        Err(FetchError::OffHostRedirect { .. })
    ));
    assert!(matches!(
        client.get(&server.url("/loop")),
        Err(FetchError::TooManyRedirects { limit: 5, .. })
    ));
    assert_eq!(server.requests().len(), 1 + 6);

    let any_host = HttpClient::new(HttpOptions {
        redirects: RedirectPolicy::AnyHost,
        max_redirects: 0,
        ..HttpOptions::default()
    });
    let response = any_host.get(&server.url("/away")).expect("the 302 itself");
    assert_eq!(response.status, 302);
}

#[test]
fn the_client_enforces_the_size_cap_and_the_timeout() {
    let server = TestServer::start(|path| match path {
        "/big" => Answer::new(200, "text/html", vec![b'x'; 4096]),
        "/slow" => {
            let mut answer = Answer::new(200, "text/html", "<p>late</p>");
            answer.stall = Duration::from_millis(800);
            answer
        }
        _ => Answer::not_found(),
    });
    let client = HttpClient::new(HttpOptions {
        max_body_bytes: 1024,
        total_timeout: Duration::from_millis(200),
        ..HttpOptions::default()
    });
    assert!(matches!(
        client.get(&server.url("/big")),
        Err(FetchError::TooLarge { limit: 1024, .. })
    ));
    let started = Instant::now();
    assert!(matches!(
        client.get(&server.url("/slow")),
        Err(FetchError::Timeout { .. })
    ));
    assert!(started.elapsed() < Duration::from_millis(700));
}

#[test]
fn requests_carry_the_pagelevel_user_agent() {
    let agent = Arc::new(Mutex::new(String::new()));
    let listener = TcpListener::bind("127.0.0.1:0").expect("binding a loopback port");
    let port = listener.local_addr().expect("a bound address").port();
    let seen = Arc::clone(&agent);
    let server = thread::spawn(move || {
        let (stream, _) = listener.accept().expect("one connection");
        let mut reader = BufReader::new(stream.try_clone().expect("a socket"));
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("user-agent:") {
                *seen.lock().expect("unpoisoned") = value.trim().to_string();
            }
            line.clear();
        }
        let mut stream = stream;
        let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n");
    });
    let url = Url::parse(&format!("http://127.0.0.1:{port}/")).expect("a valid URL");
    let response = HttpClient::new(HttpOptions::default())
        .get(&url)
        .expect("an answer");
    server.join().expect("the server thread");
    assert_eq!(response.status, 204);
    assert_eq!(
        *agent.lock().expect("unpoisoned"),
        format!("pagelevel/{}", env!("CARGO_PKG_VERSION"))
    );
}
