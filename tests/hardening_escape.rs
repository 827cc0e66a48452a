//! Nothing a rendered page does reaches the network: canary UDP sockets and TCP listeners on
//! 127.0.0.1 (and on the machine's other address, when it has one) count every datagram and
//! connection while hostile pages render through `pagelevel render` and `pagelevel score`, with
//! JavaScript off and on. The pages try WebRTC (STUN and TURN, UDP and TCP), WebTransport,
//! fetch, XHR, images, WebSockets and beacons, from the page itself, from a sibling `frame.html`
//! in an iframe, from `srcdoc` and `data:` frames and from an SVG document. The gate's other
//! defences are here too: frames that load their own page again stop, and a local process that
//! finds the gate's port but not the run's secret is refused, and nobody but pagelevel can
//! drive the browser: it listens on no port (DevTools goes over its pipe). Needs Debian's
//! `chromium`.

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

/// What `/proc/<pid>/stat` says of a process: its parent and process group.
fn parent_and_group(pid: u32) -> Option<(u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (name) state ppid pgrp …`; the name may hold spaces and parentheses.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(1);
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

fn all_processes() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .collect()
}

/// Every process of the browsers this test process started: each browser is our child leading
/// a process group of its own, and its renderers, zygotes and services are in that group.
fn browser_processes() -> Vec<u32> {
    let ours = std::process::id();
    let processes: Vec<(u32, u32, u32)> = all_processes()
        .into_iter()
        .filter_map(|pid| parent_and_group(pid).map(|(parent, group)| (pid, parent, group)))
        .collect();
    let leaders: Vec<u32> = processes
        .iter()
        .filter(|(pid, parent, group)| *parent == ours && group == pid)
        .map(|(pid, _, _)| *pid)
        .collect();
    processes
        .iter()
        .filter(|(_, _, group)| leaders.contains(group))
        .map(|(pid, _, _)| *pid)
        .collect()
}

/// The inodes of the sockets `pid` holds open.
fn socket_inodes(pid: u32) -> Vec<u64> {
    let Ok(descriptors) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    descriptors
        .flatten()
        .filter_map(|descriptor| {
            let target = std::fs::read_link(descriptor.path()).ok()?;
            let target = target.to_str()?;
            target
                .strip_prefix("socket:[")?
                .strip_suffix(']')?
                .parse()
                .ok()
        })
        .collect()
}

/// Every listening TCP socket of the machine (IPv4 and IPv6): its port and its inode.
fn listening_tcp_sockets() -> Vec<(u16, u64)> {
    const LISTEN: &str = "0A";
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|table| std::fs::read_to_string(table).ok())
        .flat_map(|table| {
            table
                .lines()
                .skip(1)
                .filter_map(|line| {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    let (_, port) = fields.get(1)?.split_once(':')?;
                    (*fields.get(3)? == LISTEN).then_some(())?;
                    Some((
                        u16::from_str_radix(port, 16).ok()?,
                        fields.get(9)?.parse().ok()?,
                    ))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What a local process gets from 127.0.0.1:`port` asking the way a DevTools client does.
fn devtools_answers(port: u16) -> Vec<String> {
    let requests = [
        "GET /json/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_string(),
        "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_string(),
        "GET /devtools/browser/00000000-0000-0000-0000-000000000000 HTTP/1.1\r\n\
         Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            .to_string(),
    ];
    requests
        .iter()
        .filter_map(|request| {
            let mut connection = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).ok()?;
            connection
                .set_read_timeout(Some(Duration::from_secs(3)))
                .ok()?;
            connection.write_all(request.as_bytes()).ok()?;
            let mut answer = Vec::new();
            let _ = connection.read_to_end(&mut answer);
            Some(String::from_utf8_lossy(&answer).into_owned())
        })
        .collect()
}

#[test]
fn a_local_process_finds_no_devtools_endpoint_while_a_browser_is_running() {
    let site = tempfile::tempdir().expect("temp dir");
    let page = site.path().join("index.html");
    std::fs::write(&page, "<!DOCTYPE html><h1>Private browser</h1>").expect("write");
    let mut renderer = renderer(RenderOptions::default());
    renderer
        .render(&PageSource::from_file(&page, None).expect("read"))
        .expect("renders");
    // The renderer keeps its browser (and its DevTools connection) for the next page.
    let browsers = browser_processes();
    assert!(!browsers.is_empty(), "the browser is running");
    for pid in &browsers {
        let command_line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let command_line = String::from_utf8_lossy(&command_line);
        assert!(
            !command_line.contains("remote-debugging-port"),
            "process {pid} was given a DevTools port: {command_line}"
        );
    }
    let browser_sockets: Vec<u64> = browsers
        .iter()
        .flat_map(|&pid| socket_inodes(pid))
        .collect();
    let listening = listening_tcp_sockets();
    let browser_listening: Vec<&(u16, u64)> = listening
        .iter()
        .filter(|(_, inode)| browser_sockets.contains(inode))
        .collect();
    assert!(
        browser_listening.is_empty(),
        "the browser listens on TCP ports {browser_listening:?}"
    );
    // pagelevel's own listeners (the gate; the DevTools bridge closes its port as soon as the
    // driver is connected) answer no DevTools request either.
    let our_sockets = socket_inodes(std::process::id());
    let our_ports: Vec<u16> = listening
        .iter()
        .filter(|(_, inode)| our_sockets.contains(inode))
        .map(|(port, _)| *port)
        .collect();
    assert!(!our_ports.is_empty(), "the gate listens");
    for port in our_ports {
        for answer in devtools_answers(port) {
            assert!(
                !answer.contains("webSocketDebuggerUrl")
                    && !answer.contains("\"Browser\"")
                    && !answer.starts_with("HTTP/1.1 101"),
                "port {port} answered a DevTools request: {answer}"
            );
        }
    }
}
