//! The DevTools driver (the `chromium` feature, on by default): one headless Chromium (Debian's
//! `chromium`) driven over the DevTools protocol by headless_chrome, with one tab reused across
//! pages. Per page it costs one `Page.navigate` and one `Runtime.evaluate` (with
//! `--javascript`, one `Page.createIsolatedWorld` too): the evaluated script itself waits for the
//! load event (or a deadline) and returns every tagged element's box, which avoids
//! headless_chrome's `wait_until_navigated` polling (~1.2 s a page). When page scripts run, it
//! runs in an isolated world they cannot reach, so they cannot change what it measures.
//! Everything that uses headless_chrome or its WebSocket (tungstenite) lives in this folder;
//! `without_browser.rs` stands in for it when the feature is off.

mod bridge;
mod pipe;
mod process;
mod walk;

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::RenderError;
use crate::layout::{Layout, Viewport};
use headless_chrome::browser::ConnectionClosed;
use headless_chrome::protocol::cdp::{Emulation, Page as CdpPage, Runtime};
use headless_chrome::{Browser, Tab};
use process::ChromiumProcess;
pub use process::stop_all_browsers;
use walk::{WalkResult, id_recorder_script, layout_from_walk, walk_script};

/// The name of the isolated world the box walk runs in (shown in DevTools, nowhere else).
const MEASURING_WORLD: &str = "pagelevel-measurement";

/// A launched browser and its one tab.
pub struct BrowserSession {
    // The DevTools connection; closed before the process below is killed.
    _browser: Browser,
    tab: Arc<Tab>,
    /// How long one DevTools call may take, for the message when one takes longer.
    call_timeout: Duration,
    /// Set when a call found the DevTools connection closed (see [`BrowserSession::is_lost`]).
    connection_closed: AtomicBool,
    /// Set when a call waited out its limit on the page (see [`BrowserSession::is_lost`]).
    page_hung: AtomicBool,
    /// Whether every new document records its elements' ids for the walk (from the first page
    /// whose scripts run; see `walk.rs`).
    recording_ids: AtomicBool,
    // Dropped last: kills the browser's whole process group.
    process: ChromiumProcess,
}

/// How long Chromium may take to start and open its DevTools port; a cold start on a loaded
/// machine takes a few seconds.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);

/// What went wrong while `doing` something with the browser, in words: headless_chrome's
/// timeout ("The event waited for never came") becomes "timed out after N s", `limit` being
/// the call timeout (`None` when the limit that ran out is not known).
fn describe(doing: &str, error: &anyhow::Error, limit: Option<Duration>) -> String {
    let timed_out = error.chain().any(|cause| {
        cause
            .downcast_ref::<headless_chrome::util::Timeout>()
            .is_some()
    });
    match (timed_out, limit) {
        (true, Some(limit)) => timed_out_after(doing, limit),
        (true, None) => format!("{doing}: the browser timed out (Chromium did not answer)"),
        (false, _) => format!("{doing}: {error:#}"),
    }
}

/// A browser call made while `doing` something that ran out of `limit`, in words.
fn timed_out_after(doing: &str, limit: Duration) -> String {
    format!(
        "{doing}: the browser call timed out after {} s (a hung page or an overloaded machine; \
         --timeout sets the limit)",
        limit.as_secs_f64()
    )
}

impl BrowserSession {
    /// Starts Chromium with every request sent through the gate at `proxy`.
    pub fn launch(
        chromium: &Path,
        proxy: std::net::SocketAddr,
        viewport: Viewport,
        call_timeout: Duration,
    ) -> Result<BrowserSession, RenderError> {
        let proxy_server = format!("http://{proxy}");
        // Everything, loopback included, goes through the gate; no host name ever resolves.
        // WebRTC ignores the proxy unless held to it: with this policy it sends no UDP at all and
        // tries TURN over TCP through the gate, which refuses it (Chromium 156 honours the
        // switch without a managed policy; `tests/hardening_escape.rs` counts the datagrams).
        let args: Vec<OsString> = [
            "--proxy-bypass-list=<-loopback>".to_string(),
            format!("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE {}", proxy.ip()),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--no-first-run".into(),
            "--disable-quic".into(),
            "--webrtc-ip-handling-policy=disable_non_proxied_udp".into(),
            "--disable-gpu".into(),
            "--hide-scrollbars".into(),
            "--mute-audio".into(),
            "--disable-domain-reliability".into(),
            "--no-pings".into(),
            "--disable-features=MediaRouter,OptimizationHints,Translate,AutofillServerCommunication,InterestFeedContentSuggestions".into(),
        ]
        .into_iter()
        .chain([
            format!("--proxy-server={proxy_server}"),
            format!("--window-size={},{}", viewport.width, viewport.height),
        ])
        .map(OsString::from)
        .collect();
        let process = ChromiumProcess::launch(chromium, &args, LAUNCH_TIMEOUT)?;
        let launch_failed = |doing: &str, error: anyhow::Error, limit| {
            RenderError::Launch(describe(doing, &error, limit))
        };
        // headless_chrome closes a connection idle for this long, and bounds each call by it.
        let browser =
            Browser::connect_with_timeout(process.devtools_url().to_string(), call_timeout)
                .map_err(|error| {
                    launch_failed("connecting to the browser", error, Some(call_timeout))
                })?;
        let tab = browser
            .new_tab()
            .map_err(|error| launch_failed("opening a tab", error, Some(call_timeout)))?;
        tab.call_method(Emulation::SetDeviceMetricsOverride {
            width: viewport.width,
            height: viewport.height,
            device_scale_factor: 1.0,
            mobile: false,
            scale: None,
            screen_width: None,
            screen_height: None,
            position_x: None,
            position_y: None,
            dont_set_visible_size: None,
            screen_orientation: None,
            viewport: None,
            display_feature: None,
            device_posture: None,
        })
        .map_err(|error| launch_failed("setting the viewport", error, Some(call_timeout)))?;
        Ok(BrowserSession {
            _browser: browser,
            tab,
            call_timeout,
            connection_closed: AtomicBool::new(false),
            page_hung: AtomicBool::new(false),
            recording_ids: AtomicBool::new(false),
            process,
        })
    }

    /// Loads `url` and returns the box of every tagged element, waiting at most `load_budget` for
    /// the load event (after it, whatever is laid out is measured). `page_scripts` says whether
    /// the page's own scripts may run.
    pub fn lay_out(
        &self,
        url: &str,
        element_count: usize,
        viewport: Viewport,
        load_budget: Duration,
        page_scripts: bool,
    ) -> Result<Layout, RenderError> {
        if page_scripts && !self.recording_ids.load(Ordering::Relaxed) {
            let started = Instant::now();
            self.tab
                .call_method(CdpPage::AddScriptToEvaluateOnNewDocument {
                    source: id_recorder_script(),
                    world_name: Some(MEASURING_WORLD.into()),
                    include_command_line_api: None,
                    run_immediately: None,
                })
                .map_err(|error| self.failed("preparing the measurement", error, started))?;
            self.recording_ids.store(true, Ordering::Relaxed);
        }
        let started = Instant::now();
        let navigation = self
            .tab
            .call_method(CdpPage::Navigate {
                url: url.to_string(),
                referrer: None,
                transition_Type: None,
                frame_id: None,
                referrer_policy: None,
            })
            .map_err(|error| self.failed("navigating", error, started))?;
        if let Some(error) = navigation.error_text {
            return Err(RenderError::Browser(format!("navigation failed: {error}")));
        }
        let walk = walk_script(url, load_budget, page_scripts);
        // The navigation may still be committing: a walk that ran in the old document says so
        // (`ready: false`) or loses its context; either way it is run again.
        for _attempt in 0..50 {
            // When the page's scripts run, the walk runs in a world of its own, as an
            // extension's content script does: the page shares the DOM with it but not the
            // JavaScript objects, so a page script that replaces `getBoundingClientRect` (or
            // anything else the walk calls) changes nothing it measures. A world belongs to one
            // document, hence one per attempt; asked for by name, it is the world the id
            // recorder already runs in, whose record the walk reads. Without page scripts the
            // page's own world is untouched and costs nothing to enter (a new world costs
            // 30–80 ms).
            let started = Instant::now();
            let context_id = if page_scripts {
                match self.tab.call_method(CdpPage::CreateIsolatedWorld {
                    frame_id: navigation.frame_id.clone(),
                    world_name: Some(MEASURING_WORLD.into()),
                    grant_univeral_access: None,
                }) {
                    Ok(world) => Some(world.execution_context_id),
                    Err(error) if error.to_string().contains("context") => continue,
                    Err(error) => {
                        return Err(self.failed("preparing the measurement", error, started));
                    }
                }
            } else {
                None
            };
            let started = Instant::now();
            let evaluated = self.tab.call_method(Runtime::Evaluate {
                expression: walk.clone(),
                return_by_value: Some(true),
                await_promise: Some(true),
                generate_preview: None,
                silent: Some(true),
                include_command_line_api: None,
                user_gesture: None,
                object_group: None,
                context_id,
                throw_on_side_effect: None,
                timeout: None,
                disable_breaks: None,
                repl_mode: None,
                allow_unsafe_eval_blocked_by_csp: None,
                unique_context_id: None,
                serialization_options: None,
            });
            let evaluated = match evaluated {
                Ok(evaluated) => evaluated,
                Err(error) if error.to_string().contains("context") => continue,
                Err(error) => return Err(self.failed("measuring", error, started)),
            };
            if let Some(exception) = evaluated.exception_details {
                if exception.text.contains("context") {
                    continue;
                }
                return Err(RenderError::Browser(format!(
                    "the box walk failed: {}",
                    exception.text
                )));
            }
            let value = evaluated.result.value.unwrap_or_default();
            let result: WalkResult = serde_json::from_value(value).map_err(|error| {
                RenderError::Browser(format!("unexpected walk result: {error}"))
            })?;
            if !result.ready {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            return Ok(layout_from_walk(result, element_count, viewport));
        }
        Err(RenderError::Browser(
            "the page never committed its navigation".into(),
        ))
    }
}

/// Whether an error says the DevTools connection is closed: headless_chrome's own flag, or —
/// when its reader closed the socket just before a call was sent — the WebSocket refusing the
/// send.
fn is_closed_connection(cause: &(dyn std::error::Error + 'static)) -> bool {
    use tungstenite::error::{Error as WebSocketError, ProtocolError};
    cause.is::<ConnectionClosed>()
        || matches!(
            cause.downcast_ref::<WebSocketError>(),
            Some(
                WebSocketError::ConnectionClosed
                    | WebSocketError::AlreadyClosed
                    | WebSocketError::Protocol(ProtocolError::SendAfterClosing)
            )
        )
}

impl BrowserSession {
    /// The error of a failed DevTools call made while `doing` something, the call `started`
    /// then.
    fn failed(&self, doing: &str, error: anyhow::Error, started: Instant) -> RenderError {
        let closed = error.chain().any(is_closed_connection);
        let timed_out = if closed {
            self.connection_closed.store(true, Ordering::Relaxed);
            // headless_chrome closes a connection idle for the call timeout, and a call waiting
            // on a hung page can lose the race to that close (fresh-clone CI runs reported an
            // endless script's page as "connection is closed"). The close reaches the bridge,
            // which closes the browser's pipe and so ends Chromium: the close is the call's
            // timeout when the client hung up first, or the browser still runs; a crash or a
            // kill ends the browser first.
            self.process.client_hung_up() || !self.process.has_exited()
        } else {
            error
                .chain()
                .any(|cause| cause.is::<headless_chrome::util::Timeout>())
        };
        // A call that waited most of its limit waited on the page; one that failed at once
        // found the connection closed between pages (idle for the limit while the caller
        // computed).
        if timed_out && started.elapsed() >= self.call_timeout / 2 {
            self.page_hung.store(true, Ordering::Relaxed);
        }
        if closed && timed_out {
            return RenderError::Browser(timed_out_after(doing, self.call_timeout));
        }
        RenderError::Browser(describe(doing, &error, Some(self.call_timeout)))
    }

    /// After a failed call: whether the browser was lost rather than failing on the page — its
    /// process ended (killed, crashed: its connection then fails in several ways) or headless_chrome
    /// closed its connection, which it does to one idle for the call timeout — and not because
    /// a call waited out its limit on the page: a hung page hangs a new browser too, so trying
    /// it again would double what it costs.
    pub fn is_lost(&self) -> bool {
        !self.page_hung.load(Ordering::Relaxed)
            && (self.connection_closed.load(Ordering::Relaxed) || self.process.has_exited())
    }

    /// A JPEG picture of the laid-out page from its top, `height` pixels at most, taken in the
    /// same navigation as [`BrowserSession::lay_out`] so it shows exactly what was measured.
    pub fn screenshot(&self, width: f64, height: f64) -> Result<Vec<u8>, RenderError> {
        use base64::Engine;
        let started = Instant::now();
        let data = self
            .tab
            .call_method(CdpPage::CaptureScreenshot {
                format: Some(CdpPage::CaptureScreenshotFormatOption::Jpeg),
                quality: Some(80),
                clip: Some(CdpPage::Viewport {
                    x: 0.0,
                    y: 0.0,
                    width,
                    height,
                    scale: 1.0,
                }),
                from_surface: Some(true),
                capture_beyond_viewport: Some(true),
                optimize_for_speed: None,
            })
            .map_err(|error| self.failed("taking a screenshot", error, started))?
            .data;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|error| RenderError::Browser(format!("decoding the screenshot: {error}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_send_refused_by_a_closed_web_socket_is_a_closed_connection() {
        use tungstenite::error::{Error as WebSocketError, ProtocolError};
        let refused =
            anyhow::Error::from(WebSocketError::Protocol(ProtocolError::SendAfterClosing));
        assert!(refused.chain().any(is_closed_connection));
        let other = anyhow::anyhow!("navigating: the page never committed");
        assert!(!other.chain().any(is_closed_connection));
    }

    #[test]
    fn a_browser_call_that_times_out_says_so_with_the_limit() {
        let error = anyhow::Error::from(headless_chrome::util::Timeout);
        let message = describe("measuring", &error, Some(Duration::from_secs(15)));
        assert!(message.contains("timed out after 15 s"), "{message}");
        assert!(!message.contains("never came"), "{message}");
        let other = describe("measuring", &anyhow::anyhow!("boom"), None);
        assert_eq!(other, "measuring: boom");
    }
}
