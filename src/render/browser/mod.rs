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

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use headless_chrome::browser::ConnectionClosed;
use headless_chrome::protocol::cdp::{Emulation, Page as CdpPage, Runtime};
use headless_chrome::{Browser, Tab};
use serde::Deserialize;

use super::{NODE_ID_ATTRIBUTE, RenderError};
use crate::layout::{Layout, LayoutBox, Viewport};
use crate::page::NodeId;
use process::ChromiumProcess;
pub use process::stop_all_browsers;

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
        (true, Some(limit)) => format!(
            "{doing}: the browser call timed out after {} s (a hung page or an overloaded \
             machine; --timeout sets the limit)",
            limit.as_secs_f64()
        ),
        (true, None) => format!("{doing}: the browser timed out (Chromium did not answer)"),
        (false, _) => format!("{doing}: {error:#}"),
    }
}

/// What the in-page walk returns: flat `[id, x, y, width, height]` quintuples (`x = null` for no
/// box) and the document size.
#[derive(Deserialize)]
struct WalkResult {
    ready: bool,
    boxes: Vec<Option<f64>>,
    /// Ids of elements laid out but not painted (`visibility: hidden | collapse`).
    #[serde(default)]
    unpainted: Vec<u32>,
    width: f64,
    height: f64,
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
        let navigation = self
            .tab
            .call_method(CdpPage::Navigate {
                url: url.to_string(),
                referrer: None,
                transition_Type: None,
                frame_id: None,
                referrer_policy: None,
            })
            .map_err(|error| self.failed("navigating", error))?;
        if let Some(error) = navigation.error_text {
            return Err(RenderError::Browser(format!("navigation failed: {error}")));
        }
        let walk = walk_script(url, load_budget);
        // The navigation may still be committing: a walk that ran in the old document says so
        // (`ready: false`) or loses its context; either way it is run again.
        for _attempt in 0..50 {
            // When the page's scripts run, the walk runs in a world of its own, as an
            // extension's content script does: the page shares the DOM with it but not the
            // JavaScript objects, so a page script that replaces `getBoundingClientRect` (or
            // anything else the walk calls) changes nothing it measures. A world belongs to one
            // document, hence one per attempt. Without page scripts the page's own world is
            // untouched and costs nothing to enter (a new world costs 30–80 ms).
            let context_id = if page_scripts {
                match self.tab.call_method(CdpPage::CreateIsolatedWorld {
                    frame_id: navigation.frame_id.clone(),
                    world_name: Some(MEASURING_WORLD.into()),
                    grant_univeral_access: None,
                }) {
                    Ok(world) => Some(world.execution_context_id),
                    Err(error) if error.to_string().contains("context") => continue,
                    Err(error) => return Err(self.failed("preparing the measurement", error)),
                }
            } else {
                None
            };
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
                Err(error) => return Err(self.failed("measuring", error)),
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
    /// The error of a failed DevTools call made while `doing` something.
    fn failed(&self, doing: &str, error: anyhow::Error) -> RenderError {
        if error.chain().any(is_closed_connection) {
            self.connection_closed.store(true, Ordering::Relaxed);
        }
        RenderError::Browser(describe(doing, &error, Some(self.call_timeout)))
    }

    /// After a failed call: whether the browser was lost rather than failing on the page — its
    /// process ended (killed, crashed: its connection then fails in several ways) or headless_chrome
    /// closed its connection, which it does to one idle for the call timeout.
    pub fn is_lost(&self) -> bool {
        self.connection_closed.load(Ordering::Relaxed) || self.process.has_exited()
    }

    /// A JPEG picture of the laid-out page from its top, `height` pixels at most, taken in the
    /// same navigation as [`BrowserSession::lay_out`] so it shows exactly what was measured.
    pub fn screenshot(&self, width: f64, height: f64) -> Result<Vec<u8>, RenderError> {
        use base64::Engine;
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
            .map_err(|error| self.failed("taking a screenshot", error))?
            .data;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|error| RenderError::Browser(format!("decoding the screenshot: {error}")))
    }
}

fn layout_from_walk(result: WalkResult, element_count: usize, viewport: Viewport) -> Layout {
    let mut boxes = vec![None; element_count];
    for quintuple in result.boxes.chunks_exact(5) {
        let (Some(id), Some(x), Some(y), Some(width), Some(height)) = (
            quintuple[0],
            quintuple[1],
            quintuple[2],
            quintuple[3],
            quintuple[4],
        ) else {
            continue;
        };
        if let Some(slot) = boxes.get_mut(id as usize) {
            *slot = Some(LayoutBox {
                x,
                y,
                width,
                height,
            });
        }
    }
    let mut unpainted: Vec<NodeId> = result
        .unpainted
        .into_iter()
        .filter(|&id| (id as usize) < element_count)
        .map(NodeId)
        .collect();
    unpainted.sort_unstable();
    Layout {
        boxes,
        unpainted,
        page_width: result.width,
        page_height: result.height,
        viewport,
    }
}

/// The in-page script: wait for this URL's load (bounded), then one pass over tagged elements.
fn walk_script(url: &str, load_budget: Duration) -> String {
    let url = serde_json::to_string(url).unwrap_or_else(|_| "\"\"".into());
    format!(
        r#"(async () => {{
  // Every DOM call goes through the prototypes: `document` and forms expose named elements as
  // properties (`<img name="body">`, `<input name="getAttribute">`) that shadow the methods and
  // attributes of the same name, but never on the prototypes.
  const getter = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
  const readyState = getter(Document.prototype, "readyState");
  const rootOf = getter(Document.prototype, "documentElement");
  const bodyOf = getter(Document.prototype, "body");
  const scrollWidth = getter(Element.prototype, "scrollWidth");
  const scrollHeight = getter(Element.prototype, "scrollHeight");
  const {{ querySelectorAll }} = Document.prototype;
  const {{ getAttribute, getClientRects, getBoundingClientRect }} = Element.prototype;
  if (location.href !== {url}) return {{ ready: false, boxes: [], width: 0, height: 0 }};
  const deadline = Date.now() + {budget};
  while (readyState.call(document) !== "complete" && Date.now() < deadline) {{
    await new Promise(resolve => setTimeout(resolve, 5));
  }}
  const boxes = [];
  const unpainted = [];
  const sx = window.scrollX, sy = window.scrollY;
  for (const element of querySelectorAll.call(document, "[{attribute}]")) {{
    const id = Number(getAttribute.call(element, "{attribute}"));
    if (getClientRects.call(element).length === 0) {{
      boxes.push(id, null, null, null, null);
      continue;
    }}
    // Laid out (it takes its space) but not painted: its text is never seen.
    if (getComputedStyle(element).visibility !== "visible") unpainted.push(id);
    const r = getBoundingClientRect.call(element);
    boxes.push(id, r.left + sx, r.top + sy, r.width, r.height);
  }}
  const root = rootOf.call(document);
  const body = bodyOf.call(document) || root;
  return {{
    ready: true,
    boxes,
    unpainted,
    width: Math.max(scrollWidth.call(root), scrollWidth.call(body)),
    height: Math.max(scrollHeight.call(root), scrollHeight.call(body)),
  }};
}})()"#,
        budget = load_budget.as_millis(),
        attribute = NODE_ID_ATTRIBUTE,
    )
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
