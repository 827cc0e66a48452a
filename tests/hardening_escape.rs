//! Nothing a rendered page does reaches the network: canary UDP sockets and TCP listeners on
//! 127.0.0.1 (and on the machine's other address, when it has one) count every datagram and
//! connection while hostile pages render through `pagelevel render` and `pagelevel score`, with
//! JavaScript off and on. The pages try WebRTC (STUN and TURN, UDP and TCP), WebTransport,
//! fetch, XHR, images, WebSockets and beacons, from the page itself, from a sibling `frame.html`
//! in an iframe, from `srcdoc` and `data:` frames and from an SVG document. The gate's other
//! defences are here too: frames that load their own page again stop, and a local process that
//! finds the gate's port but not the run's secret is refused. Needs Debian's `chromium`.

mod common;

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use common::{pagelevel, succeed};
use pagelevel::page::PageSource;
use pagelevel::render::{RenderOptions, Renderer};

/// What a canary received, by sender: the test's own sentinels tell when everything sent before
/// them has been read, so no count depends on how long the test waits.
#[derive(Default)]
struct Received {
    datagram_senders: Vec<SocketAddr>,
    connection_peers: Vec<SocketAddr>,
}

/// A UDP socket and a TCP listener on one address, counting what reaches them.
struct Canary {
    ip: IpAddr,
    udp_port: u16,
    tcp_port: u16,
    received: Arc<Mutex<Received>>,
}

impl Canary {
    fn start(ip: IpAddr) -> Canary {
        let udp = UdpSocket::bind((ip, 0)).expect("bind a UDP canary");
        let tcp = TcpListener::bind((ip, 0)).expect("bind a TCP canary");
        let received = Arc::new(Mutex::new(Received::default()));
        let canary = Canary {
            ip,
            udp_port: udp.local_addr().expect("address").port(),
            tcp_port: tcp.local_addr().expect("address").port(),
            received: Arc::clone(&received),
        };
        let datagrams = Arc::clone(&received);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 2048];
            while let Ok((_, sender)) = udp.recv_from(&mut buffer) {
                datagrams
                    .lock()
                    .expect("lock")
                    .datagram_senders
                    .push(sender);
            }
        });
        std::thread::spawn(move || {
            for stream in tcp.incoming().flatten() {
                if let Ok(peer) = stream.peer_addr() {
                    received.lock().expect("lock").connection_peers.push(peer);
                }
                // Hold the connection open, as a server that never answers would.
                std::thread::spawn(move || {
                    let mut stream = stream;
                    let mut buffer = [0u8; 1024];
                    while stream.read(&mut buffer).is_ok_and(|read| read > 0) {}
                });
            }
        });
        canary
    }

    /// Datagrams and connections received from anyone but the test itself, once a sentinel
    /// datagram and a sentinel connection sent now have arrived (so everything the browser sent
    /// before it exited has been read).
    fn settle_and_count(&self) -> (usize, usize) {
        let sender = UdpSocket::bind((self.ip, 0)).expect("bind the sentinel sender");
        sender
            .send_to(b"sentinel", (self.ip, self.udp_port))
            .expect("send the sentinel datagram");
        let sentinel_datagram = sender.local_addr().expect("address");
        let sentinel_connection = TcpStream::connect((self.ip, self.tcp_port))
            .expect("connect the sentinel")
            .local_addr()
            .expect("address");
        // Generous: loopback delivery takes microseconds; this only stops a broken canary
        // from hanging the test.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            {
                let received = self.received.lock().expect("lock");
                let datagram_seen = received.datagram_senders.contains(&sentinel_datagram);
                let connection_seen = received.connection_peers.contains(&sentinel_connection);
                if datagram_seen && connection_seen {
                    let is_sentinel = |peer: &&SocketAddr| {
                        peer.ip() == self.ip
                            && (**peer == sentinel_datagram || **peer == sentinel_connection)
                    };
                    let datagrams = received.datagram_senders.len()
                        - received.datagram_senders.iter().filter(is_sentinel).count();
                    let connections = received.connection_peers.len()
                        - received.connection_peers.iter().filter(is_sentinel).count();
                    return (datagrams, connections);
                }
            }
            assert!(
                Instant::now() < deadline,
                "the canary at {} is broken",
                self.ip
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The machine's address on its default route, if it has one: which source address the kernel
/// would use for a packet to a documentation address (connecting a UDP socket sends nothing).
fn non_loopback_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect("203.0.113.1:9").ok()?;
    let address = socket.local_addr().ok()?.ip();
    (!address.is_loopback() && !address.is_unspecified()).then_some(address)
}

fn canaries() -> Vec<Canary> {
    let mut addresses = vec![IpAddr::V4(Ipv4Addr::LOCALHOST)];
    addresses.extend(non_loopback_address());
    addresses.into_iter().map(Canary::start).collect()
}

/// The script every probe context runs: every way out we know of, to every canary. It also
/// holds its document's load event for a while (a chain of image requests the gate refuses), so
/// the page is measured only after its attempts had time to leave.
fn probe_script(canaries: &[Canary]) -> String {
    let targets: Vec<String> = canaries
        .iter()
        .map(|canary| {
            format!(
                "{{ host: \"{}\", udp: {}, tcp: {} }}",
                canary.ip, canary.udp_port, canary.tcp_port
            )
        })
        .collect();
    format!(
        r#"(function () {{
  const targets = [{targets}];
  const quietly = attempt => {{ try {{ const result = attempt(); if (result && result.catch) result.catch(() => {{}}); }} catch (error) {{}} }};
  window.probes = [];
  for (const target of targets) {{
    const udp = target.host + ":" + target.udp, tcp = target.host + ":" + target.tcp;
    quietly(() => {{
      const connection = new RTCPeerConnection({{ iceServers: [
        {{ urls: ["stun:" + udp] }},
        {{ urls: ["turn:" + udp + "?transport=udp", "turn:" + tcp + "?transport=tcp"], username: "probe", credential: "probe" }},
      ] }});
      window.probes.push(connection);
      connection.createDataChannel("probe");
      return connection.createOffer().then(offer => connection.setLocalDescription(offer));
    }});
    quietly(() => new WebTransport("https://" + udp + "/transport").ready);
    quietly(() => fetch("http://" + tcp + "/fetch", {{ mode: "no-cors" }}));
    quietly(() => {{ const request = new XMLHttpRequest(); request.open("GET", "http://" + tcp + "/xhr"); request.send(); }});
    quietly(() => {{ new Image().src = "http://" + tcp + "/image.png"; }});
    quietly(() => {{ window.probes.push(new WebSocket("ws://" + tcp + "/socket")); }});
    quietly(() => navigator.sendBeacon("http://" + tcp + "/beacon", "probe"));
  }}
  if (location.protocol !== "http:") return;
  const until = Date.now() + 1500;
  const hold = () => {{
    if (Date.now() > until) return;
    const image = new Image();
    image.onload = image.onerror = hold;
    image.src = "/hold-" + Math.random() + ".png";
    document.documentElement.appendChild(image);
  }};
  hold();
}})();"#,
        targets = targets.join(", ")
    )
}

/// A page that tries to get out in every context it can make: its own script, a sibling
/// `frame.html`, a `srcdoc` frame, a `data:` frame and an SVG document; plus plain resources.
fn write_hostile_site(directory: &Path, canaries: &[Canary]) {
    let probe = probe_script(canaries);
    let escaped_probe = probe.replace('&', "&amp;").replace('"', "&quot;");
    let data_frame = base64::engine::general_purpose::STANDARD.encode(format!(
        "<!DOCTYPE html><p>data frame</p><script>{probe}</script>"
    ));
    let resources: String = canaries
        .iter()
        .map(|canary| {
            let tcp = format!("{}:{}", canary.ip, canary.tcp_port);
            format!(
                "<img src=\"http://{tcp}/plain.png\" width=\"10\" height=\"10\">\
                 <link rel=\"stylesheet\" href=\"http://{tcp}/plain.css\">\
                 <iframe src=\"http://{tcp}/plain-frame.html\"></iframe>"
            )
        })
        .collect();
    let page = format!(
        "<!DOCTYPE html><html><head><title>Escape probe</title></head><body>\
         <h1>Escape probe</h1><p>Text that is measured.</p>{resources}\
         <iframe src=\"frame.html\" width=\"400\" height=\"300\"></iframe>\
         <iframe srcdoc=\"<p>srcdoc frame</p><script>{escaped_probe}</script>\"></iframe>\
         <iframe src=\"data:text/html;base64,{data_frame}\"></iframe>\
         <iframe src=\"probe.svg\"></iframe>\
         <script>{probe}</script></body></html>"
    );
    std::fs::write(directory.join("index.html"), page).expect("write the page");
    std::fs::write(
        directory.join("frame.html"),
        format!("<!DOCTYPE html><p>sibling frame</p><script>{probe}</script>"),
    )
    .expect("write the frame");
    std::fs::write(
        directory.join("probe.svg"),
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\">\
             <script><![CDATA[{probe}]]></script></svg>"
        ),
    )
    .expect("write the SVG");
}

/// Runs `pagelevel` with `arguments` on a fresh hostile site and returns, per canary address,
/// the datagrams and connections that reached it.
fn escapes_during(arguments: &[&str]) -> Vec<(IpAddr, usize, usize)> {
    let canaries = canaries();
    let site = tempfile::tempdir().expect("temp dir");
    write_hostile_site(site.path(), &canaries);
    let cache = tempfile::tempdir().expect("temp dir");
    succeed(
        pagelevel(cache.path())
            .args(arguments)
            .arg("--no-cache")
            .arg(site.path().join("index.html")),
    );
    canaries
        .iter()
        .map(|canary| {
            let (datagrams, connections) = canary.settle_and_count();
            (canary.ip, datagrams, connections)
        })
        .collect()
}

fn assert_nothing_escaped(arguments: &[&str]) {
    let escapes = escapes_during(arguments);
    for (address, datagrams, connections) in &escapes {
        eprintln!("{arguments:?} → {address}: {datagrams} datagrams, {connections} connections");
    }
    assert!(
        escapes
            .iter()
            .all(|&(_, datagrams, connections)| datagrams == 0 && connections == 0),
        "traffic escaped the gate with {arguments:?}: {escapes:?} (address, datagrams, connections)"
    );
}

#[test]
fn with_javascript_off_no_frame_svg_or_data_document_gets_a_datagram_or_connection_out() {
    assert_nothing_escaped(&["render", "--layout", "chromium"]);
}

#[test]
fn with_javascript_on_no_webrtc_webtransport_or_request_gets_out() {
    assert_nothing_escaped(&["render", "--layout", "chromium", "--javascript"]);
}

#[test]
fn scoring_a_hostile_page_sends_nothing_out_either() {
    assert_nothing_escaped(&["score", "--layout", "chromium", "--javascript"]);
}

fn renderer(options: RenderOptions) -> Renderer {
    Renderer::new(options).expect("chromium is installed (run the README's test command)")
}

#[test]
fn frames_that_load_their_own_page_again_stop_after_a_few_documents() {
    // Each level frames the page eight more times under new queries; Chromium allows a URL
    // twice in a frame's ancestry, so without a cap this grows to its thousand-frame limit.
    let site = tempfile::tempdir().expect("temp dir");
    let frames: String = (0..8)
        .map(|index| format!("<iframe src=\"?{index}\"></iframe>"))
        .collect();
    let page = site.path().join("index.html");
    std::fs::write(&page, format!("<!DOCTYPE html><h1>Frames</h1>{frames}")).expect("write");
    let mut renderer = renderer(RenderOptions::default());
    let rendered = renderer
        .render(&PageSource::from_file(&page, None).expect("read"))
        .expect("renders");
    let iframe = rendered.page.dom.first_with_tag("iframe").expect("iframe");
    assert!(
        rendered.layout_box(iframe).is_some(),
        "the frames keep their boxes"
    );
    let served = renderer.gate().served_requests();
    assert!(
        served <= 8,
        "{served} documents served for one page with self-loading frames"
    );
}

/// Tries, until `stop`, to read `index.html` through the gate at `gate` the way a local process
/// that found the port would: under the host names pages would have without a secret (and one
/// with a wrong secret). Returns the status lines it got.
fn attack(gate: SocketAddr, stop: &AtomicBool) -> Vec<String> {
    let guesses: Vec<String> = (1..=3)
        .map(|number| format!("page{number}.pagelevel.invalid"))
        .chain(["page1-00000000000000000000000000000000.pagelevel.invalid".to_string()])
        .collect();
    let mut statuses = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        for host in &guesses {
            let Ok(mut connection) = TcpStream::connect(gate) else {
                continue;
            };
            let request = format!(
                "GET http://{host}/index.html HTTP/1.1\r\nHost: {host}\r\nAccept: text/html\r\n\r\n"
            );
            if connection.write_all(request.as_bytes()).is_err() {
                continue;
            }
            let mut response = String::new();
            let _ = connection.read_to_string(&mut response);
            statuses.push(response.lines().next().unwrap_or("").to_string());
        }
        // Spares the machine thousands of connections; how often it tries does not matter.
        std::thread::sleep(Duration::from_millis(5));
    }
    statuses
}

#[test]
fn a_local_process_that_finds_the_gate_port_without_the_run_secret_is_refused() {
    let site = tempfile::tempdir().expect("temp dir");
    let page = site.path().join("index.html");
    // The page keeps loading (stylesheets the gate refuses, one after another) for its whole
    // load budget, so it stays published while the other process tries.
    std::fs::write(
        &page,
        "<!DOCTYPE html><h1>Private page</h1><script>\
         const hold = () => { const link = document.createElement('link'); link.rel = 'stylesheet';\
         link.href = 'hold-' + Math.random() + '.css'; link.onerror = link.onload = hold;\
         document.head.appendChild(link); }; hold();</script>",
    )
    .expect("write");
    let mut renderer = renderer(RenderOptions {
        javascript: true,
        ..RenderOptions::default()
    });
    let gate = renderer.gate().address();
    let stop = Arc::new(AtomicBool::new(false));
    let attacker = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || attack(gate, &stop))
    };
    let rendered = renderer.render(&PageSource::from_file(&page, None).expect("read"));
    stop.store(true, Ordering::SeqCst);
    let statuses = attacker.join().expect("the attacker thread");
    let rendered = rendered.expect("the browser, which has the secret, renders the page");
    assert!(rendered.layout_box(pagelevel::page::NodeId(0)).is_some());
    assert!(
        renderer.gate().served_requests() >= 1,
        "the browser was served"
    );
    assert!(!statuses.is_empty(), "the other process tried");
    let answered: Vec<&String> = statuses
        .iter()
        .filter(|status| !status.contains("403"))
        .collect();
    assert!(
        answered.is_empty(),
        "{} of {} requests without the secret were not refused: {:?}",
        answered.len(),
        statuses.len(),
        answered.first()
    );
}
