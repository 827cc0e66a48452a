//! The DevTools bridge: headless_chrome speaks DevTools only over a WebSocket, Chromium is
//! driven over its pipe ([`super::pipe`]) so that it listens on no socket. The bridge is a
//! loopback WebSocket server for exactly one client, relaying each text message to the pipe
//! (ended by a NUL byte) and each pipe message back as a text message.
//!
//! Why no other local process can use it: its only URL path carries a 128-bit secret drawn
//! when the bridge starts and handed to headless_chrome in memory (never on a command line, in
//! a file or a log); any other path (`/json/version` included) is refused, and once the
//! client with the secret is connected the listening socket is closed, so a second connection
//! is refused by the kernel. A connection that sends no request is given up after
//! [`HANDSHAKE_TIMEOUT`], so a silent one can delay the browser's client, never block it.
//!
//! One thread relays in both directions with `poll`, so neither direction waits for the other.
//! It ends when either side closes or when the bridge is dropped, and records which
//! ([`RelayEnd`]): closing the pipe ends Chromium, so once the relay has ended the browser's
//! process ends whichever side left first, and only this record tells a client's hang-up from
//! a crash.

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::Rng;
use tungstenite::handshake::server::{Callback, ErrorResponse, Request, Response};
use tungstenite::http::StatusCode;
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use super::pipe::{DevToolsPipe, MESSAGE_END, set_non_blocking};

/// How long a connection may take to send its WebSocket request.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(2);

/// How the path of the bridge's one URL starts (Chromium's own form, before the secret).
const PATH_PREFIX: &str = "/devtools/browser/";

/// Which side ended the relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelayEnd {
    /// The client closed its WebSocket (headless_chrome closes one idle for its call timeout).
    ClientLeft,
    /// The browser closed its pipe: it ended (a crash, a kill).
    BrowserLeft,
    /// The bridge was dropped, or `poll` failed.
    Stopped,
}

/// A running bridge; dropping it ends its thread (and closes the browser's pipe).
pub struct DevToolsBridge {
    url: String,
    /// Set once, when the relay ends (never if no client connected).
    ended: Arc<OnceLock<RelayEnd>>,
    /// Closed on drop: the relay thread sees its other end hang up and stops.
    stop: Option<OwnedFd>,
    thread: Option<JoinHandle<()>>,
}

impl DevToolsBridge {
    /// Starts relaying between `pipe` and the one WebSocket client that knows [`Self::url`].
    pub fn start(pipe: DevToolsPipe) -> std::io::Result<DevToolsBridge> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        // `rand::rng()` is a CSPRNG seeded from the operating system.
        let path = format!("{PATH_PREFIX}{:032x}", rand::rng().random::<u128>());
        let url = format!("ws://{}{path}", listener.local_addr()?);
        let (stopped, stop) = std::io::pipe()?;
        let ended = Arc::new(OnceLock::new());
        let record = Arc::clone(&ended);
        let thread = std::thread::Builder::new()
            .name("devtools-bridge".into())
            .spawn(move || {
                let stopped = OwnedFd::from(stopped);
                if let Some(client) = accept_client(&listener, &path, &pipe, &stopped) {
                    drop(listener);
                    let end = relay(client, pipe, &stopped).unwrap_or(RelayEnd::Stopped);
                    let _ = record.set(end);
                }
            })?;
        Ok(DevToolsBridge {
            url,
            ended,
            stop: Some(OwnedFd::from(stop)),
            thread: Some(thread),
        })
    }

    /// The WebSocket URL the browser's client connects to; it holds the secret.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// How the relay ended, waiting up to `grace` for it to end (`None`: still relaying).
    pub fn end_within(&self, grace: Duration) -> Option<RelayEnd> {
        let deadline = Instant::now() + grace;
        loop {
            if let Some(&end) = self.ended.get() {
                return Some(end);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for DevToolsBridge {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What `poll` says of each descriptor it watched.
struct Readiness {
    revents: Vec<libc::c_short>,
}

impl Readiness {
    fn readable(&self, index: usize) -> bool {
        self.revents[index] & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0
    }
}

/// Waits until one of `watched` (descriptor, events) is ready; EINTR counts as nothing ready.
fn wait_for(watched: &[(libc::c_int, libc::c_short)]) -> std::io::Result<Readiness> {
    let mut polls: Vec<libc::pollfd> = watched
        .iter()
        .map(|&(fd, events)| libc::pollfd {
            fd,
            events,
            revents: 0,
        })
        .collect();
    // SAFETY: poll reads and writes exactly the `polls.len()` entries it is given.
    let ready = unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, -1) };
    if ready == -1 {
        let error = std::io::Error::last_os_error();
        if error.kind() != ErrorKind::Interrupted {
            return Err(error);
        }
        polls.iter_mut().for_each(|poll| poll.revents = 0);
    }
    Ok(Readiness {
        revents: polls.iter().map(|poll| poll.revents).collect(),
    })
}

/// Whether `given` is `expected`, in time independent of where they first differ.
fn same_secret(given: &str, expected: &str) -> bool {
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0, |difference, (a, b)| difference | (a ^ b))
            == 0
}

/// How the bridge's WebSocket reads and writes: a DevTools message (a screenshot, a large
/// page's boxes) may be any size, as headless_chrome's own client allows.
fn unbounded_messages() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(None)
        .max_frame_size(None)
}

/// The handshake's check: a request for any path but this one is answered 404.
struct OnlyThePath<'a>(&'a str);

impl Callback for OnlyThePath<'_> {
    fn on_request(self, request: &Request, response: Response) -> Result<Response, ErrorResponse> {
        if same_secret(request.uri().path(), self.0) {
            Ok(response)
        } else {
            let mut refusal = ErrorResponse::new(None);
            *refusal.status_mut() = StatusCode::NOT_FOUND;
            Err(refusal)
        }
    }
}

/// Accepts connections until one asks for `path`, answering every other one 404; `None` when
/// the bridge is stopped or the browser closes its pipe first.
fn accept_client(
    listener: &TcpListener,
    path: &str,
    pipe: &DevToolsPipe,
    stopped: &OwnedFd,
) -> Option<WebSocket<TcpStream>> {
    listener.set_nonblocking(true).ok()?;
    let watched = [
        (listener.as_raw_fd(), libc::POLLIN),
        (pipe.from_browser.as_raw_fd(), libc::POLLIN),
        (stopped.as_raw_fd(), libc::POLLIN),
    ];
    loop {
        let ready = wait_for(&watched).ok()?;
        if ready.readable(1) || ready.readable(2) {
            return None;
        }
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(error) if error.kind() == ErrorKind::WouldBlock => continue,
            Err(_) => return None,
        };
        let prepared = stream.set_nonblocking(false).is_ok()
            && stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT)).is_ok()
            && stream.set_write_timeout(Some(HANDSHAKE_TIMEOUT)).is_ok()
            && stream.set_nodelay(true).is_ok();
        if !prepared {
            continue;
        }
        let handshake = tungstenite::accept_hdr_with_config(
            stream,
            OnlyThePath(path),
            Some(unbounded_messages()),
        );
        if let Ok(client) = handshake {
            return Some(client);
        }
    }
}

/// Relays messages both ways until either side closes or the bridge is stopped; says which.
fn relay(
    mut client: WebSocket<TcpStream>,
    mut pipe: DevToolsPipe,
    stopped: &OwnedFd,
) -> std::io::Result<RelayEnd> {
    client.get_mut().set_read_timeout(None)?;
    client.get_mut().set_write_timeout(None)?;
    client.get_mut().set_nonblocking(true)?;
    set_non_blocking(&pipe.to_browser)?;
    set_non_blocking(&pipe.from_browser)?;
    let socket = client.get_ref().as_raw_fd();
    // Bytes read from the browser not yet ending in a NUL, and bytes for the browser not yet
    // written (pipes and sockets take what fits).
    let mut from_browser: Vec<u8> = Vec::new();
    let mut to_browser: Vec<u8> = Vec::new();
    let mut client_unflushed = false;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let socket_events = match client_unflushed {
            true => libc::POLLIN | libc::POLLOUT,
            false => libc::POLLIN,
        };
        let browser_events = match to_browser.is_empty() {
            true => 0,
            false => libc::POLLOUT,
        };
        let ready = wait_for(&[
            (socket, socket_events),
            (pipe.from_browser.as_raw_fd(), libc::POLLIN),
            (pipe.to_browser.as_raw_fd(), browser_events),
            (stopped.as_raw_fd(), libc::POLLIN),
        ])?;
        if ready.readable(3) {
            return Ok(RelayEnd::Stopped);
        }
        if ready.readable(0) {
            loop {
                match client.read() {
                    Ok(Message::Text(text)) => {
                        to_browser.extend_from_slice(text.as_bytes());
                        to_browser.push(MESSAGE_END);
                    }
                    Ok(Message::Close(_)) => return Ok(RelayEnd::ClientLeft),
                    Ok(_) => {}
                    Err(tungstenite::Error::Io(error)) if error.kind() == ErrorKind::WouldBlock => {
                        break;
                    }
                    Err(_) => return Ok(RelayEnd::ClientLeft),
                }
            }
        }
        if ready.readable(1) {
            loop {
                match pipe.from_browser.read(&mut chunk) {
                    // The browser ended: its client learns it from the closed connection.
                    Ok(0) => return Ok(RelayEnd::BrowserLeft),
                    Ok(read) => from_browser.extend_from_slice(&chunk[..read]),
                    Err(error) if error.kind() == ErrorKind::WouldBlock => break,
                    Err(error) if error.kind() == ErrorKind::Interrupted => {}
                    Err(_) => return Ok(RelayEnd::BrowserLeft),
                }
            }
            let mut start = 0;
            while let Some(length) = from_browser[start..].iter().position(|&b| b == MESSAGE_END) {
                let message = String::from_utf8_lossy(&from_browser[start..start + length]);
                start += length + 1;
                match client.write(Message::text(message.into_owned())) {
                    Ok(()) => client_unflushed = true,
                    Err(tungstenite::Error::Io(error)) if error.kind() == ErrorKind::WouldBlock => {
                        client_unflushed = true;
                    }
                    Err(_) => return Ok(RelayEnd::ClientLeft),
                }
            }
            from_browser.drain(..start);
        }
        if client_unflushed {
            match client.flush() {
                Ok(()) => client_unflushed = false,
                Err(tungstenite::Error::Io(error)) if error.kind() == ErrorKind::WouldBlock => {}
                Err(_) => return Ok(RelayEnd::ClientLeft),
            }
        }
        if !to_browser.is_empty() {
            match pipe.to_browser.write(&to_browser) {
                Ok(written) => {
                    to_browser.drain(..written);
                }
                Err(error)
                    if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => {}
                Err(_) => return Ok(RelayEnd::BrowserLeft),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::browser::pipe::devtools_pipe;
    use std::io::BufRead;

    /// A bridge to a stand-in browser that answers every message `m` with `answer to m`.
    fn bridge_to_an_echoing_browser() -> (DevToolsBridge, JoinHandle<()>) {
        let (pipe, ends) = devtools_pipe().expect("pipes");
        let (reads, mut writes) = ends.into_files();
        let browser = std::thread::spawn(move || {
            for message in std::io::BufReader::new(reads).split(MESSAGE_END) {
                let Ok(message) = message else { break };
                let mut answer = b"answer to ".to_vec();
                answer.extend_from_slice(&message);
                answer.push(MESSAGE_END);
                if writes.write_all(&answer).is_err() {
                    break;
                }
            }
        });
        (DevToolsBridge::start(pipe).expect("bridge"), browser)
    }

    fn address_of(url: &str) -> &str {
        let rest = url.strip_prefix("ws://").expect("a ws URL");
        &rest[..rest.find('/').expect("a path")]
    }

    /// The whole answer to a plain HTTP GET of `path` (empty when the bridge just hangs up).
    fn answer_to_get(address: &str, path: &str) -> String {
        let mut stream = TcpStream::connect(address).expect("connects");
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").expect("request");
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    }

    #[test]
    fn the_bridge_relays_messages_both_ways_for_the_client_holding_its_secret() {
        let (bridge, _browser) = bridge_to_an_echoing_browser();
        let (mut client, _) = tungstenite::connect(bridge.url()).expect("connects");
        for question in ["{\"id\":1}", "{\"id\":2,\"method\":\"Page.navigate\"}"] {
            client.send(Message::text(question)).expect("sends");
            let answer = client.read().expect("answer");
            assert_eq!(answer, Message::text(format!("answer to {question}")));
        }
        let large = "x".repeat(3 << 20);
        client.send(Message::text(large.clone())).expect("sends");
        assert_eq!(client.read().expect("answer").len(), large.len() + 10);
    }

    #[test]
    fn the_bridge_refuses_every_other_path_and_any_second_client() {
        let (bridge, _browser) = bridge_to_an_echoing_browser();
        let address = address_of(bridge.url()).to_string();
        for path in [
            "/json/version",
            "/json/list",
            "/json",
            "/devtools/browser/0123",
        ] {
            let answer = answer_to_get(&address, path);
            assert!(
                answer.is_empty() || answer.starts_with("HTTP/1.1 404 "),
                "{path}: {answer}"
            );
            let upgrade = tungstenite::connect(format!("ws://{address}{path}"));
            assert!(upgrade.is_err(), "{path} upgraded");
        }
        let guessed = format!("ws://{address}{PATH_PREFIX}{:032x}", 0x5ec7e7u128);
        assert!(tungstenite::connect(guessed).is_err());
        let (_client, _) = tungstenite::connect(bridge.url()).expect("the first client connects");
        // The client may hold the bridge's answer a moment before the bridge's thread closes
        // its listening socket: wait for the refusal rather than race the thread.
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        let refused = || {
            matches!(TcpStream::connect(&address),
                Err(error) if error.kind() == ErrorKind::ConnectionRefused)
        };
        while !refused() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(refused(), "nothing listens once the client is connected");
        assert!(tungstenite::connect(bridge.url()).is_err());
    }

    #[test]
    fn the_bridge_ends_when_the_browser_closes_its_pipe_and_closes_the_client() {
        let (pipe, ends) = devtools_pipe().expect("pipes");
        let bridge = DevToolsBridge::start(pipe).expect("bridge");
        let (mut client, _) = tungstenite::connect(bridge.url()).expect("connects");
        drop(ends);
        assert!(
            client.read().is_err(),
            "the client learns the browser is gone"
        );
        // The thread closes the connection just before it returns.
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        let finished = || bridge.thread.as_ref().is_some_and(JoinHandle::is_finished);
        while !finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(finished(), "the relay thread has ended");
        assert_eq!(
            bridge.end_within(Duration::ZERO),
            Some(RelayEnd::BrowserLeft)
        );
    }

    #[test]
    fn the_bridge_records_that_the_client_left_first() {
        let (bridge, _browser) = bridge_to_an_echoing_browser();
        let (mut client, _) = tungstenite::connect(bridge.url()).expect("connects");
        assert_eq!(bridge.end_within(Duration::ZERO), None, "still relaying");
        client.close(None).expect("closes");
        let _ = client.flush();
        assert_eq!(
            bridge.end_within(Duration::from_secs(2)),
            Some(RelayEnd::ClientLeft)
        );
    }

    #[test]
    fn a_silent_connection_delays_the_client_but_does_not_block_it() {
        let (bridge, _browser) = bridge_to_an_echoing_browser();
        let _silent = TcpStream::connect(address_of(bridge.url())).expect("connects");
        let started = std::time::Instant::now();
        let (mut client, _) = tungstenite::connect(bridge.url()).expect("connects");
        assert!(started.elapsed() < HANDSHAKE_TIMEOUT + Duration::from_secs(2));
        client.send(Message::text("{}")).expect("sends");
        assert_eq!(
            client.read().expect("answer"),
            Message::text("answer to {}")
        );
    }

    #[test]
    fn a_secret_is_compared_whole() {
        assert!(same_secret("/devtools/browser/ab", "/devtools/browser/ab"));
        assert!(!same_secret("/devtools/browser/aa", "/devtools/browser/ab"));
        assert!(!same_secret("/devtools/browser/a", "/devtools/browser/ab"));
    }
}
