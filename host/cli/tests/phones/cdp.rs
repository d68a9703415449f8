//! Headless Chromium driven over the DevTools protocol: JSON commands and events on one
//! WebSocket (the test's `tungstenite`), each phone a page in a browser context of its own
//! (its own storage, as two phones are two browsers).
//!
//! Why the DevTools protocol and not WebDriver: the protocol gives what the tests need
//! directly — every WebSocket frame a page receives (`Network.webSocketFrameReceived`), real
//! touch input, a phone's screen size, the network cut — and costs no new crate, where a
//! WebDriver client (fantoccini) adds 56 crates to the build, two generations of ICU among
//! them, and still needs Chromium's own log API to read the frames.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Where Chromium is: `VEILLEE_CHROMIUM`, else `chromium` or `chromium-browser` on the
/// `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("VEILLEE_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// How long one command may take before the test fails (a page that hangs, a browser gone).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// A headless Chromium, closed (and its profile removed) when dropped.
pub struct Browser {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Events read while waiting for answers, not yet taken.
    events: VecDeque<Value>,
    _profile: tempfile::TempDir,
}

/// A page of the browser (one phone).
#[derive(Clone, Debug)]
pub struct Page {
    /// The DevTools session attached to it.
    pub session: String,
}

impl Browser {
    /// Starts Chromium with a fresh profile, the flags this machine needs (no sandbox as
    /// root, no GPU, no background connections to Google), and its DevTools on a free port.
    pub fn start(chromium: &Path) -> Browser {
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut child = Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--hide-scrollbars",
                "--mute-audio",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        let url = devtools_url(&mut child);
        let (socket, _) = tungstenite::connect(url.as_str())
            .unwrap_or_else(|e| panic!("cannot reach Chromium's DevTools at {url}: {e}"));
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_millis(200)))
                .expect("a read timeout");
        }
        Browser {
            child,
            socket,
            next_id: 0,
            events: VecDeque::new(),
            _profile: profile,
        }
    }

    /// Sends a command (to a page's session, or to the browser) and waits for its answer;
    /// events read meanwhile are kept for [`Browser::events`].
    pub fn call(&mut self, page: Option<&Page>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({"id": id, "method": method, "params": params});
        if let Some(page) = page {
            command["sessionId"] = json!(page.session);
        }
        self.socket
            .send(Message::text(command.to_string()))
            .unwrap_or_else(|e| panic!("Chromium stopped listening ({method}): {e}"));
        let deadline = Instant::now() + COMMAND_TIMEOUT;
        loop {
            assert!(
                Instant::now() < deadline,
                "Chromium did not answer {method} in {COMMAND_TIMEOUT:?}"
            );
            let Some(message) = self.read() else { continue };
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    panic!(
                        "Chromium refused {method} {params:?}: {error}",
                        params = command["params"]
                    );
                }
                return message["result"].clone();
            }
            self.events.push_back(message);
        }
    }

    /// One message from the browser, or `None` when none came for a moment.
    fn read(&mut self) -> Option<Value> {
        match self.socket.read() {
            Ok(Message::Text(text)) => serde_json::from_str(text.as_str()).ok(),
            Ok(_) => None,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                None
            }
            Err(e) => panic!("the connection to Chromium broke: {e}"),
        }
    }

    /// Every event received so far (and those waiting on the socket), taken.
    pub fn events(&mut self) -> Vec<Value> {
        // Whatever is already on the socket: a cheap round trip brings it in.
        self.call(None, "Browser.getVersion", json!({}));
        self.events.drain(..).collect()
    }

    /// A new page of `width`×`height` CSS pixels, as a computer's screen.
    pub fn screen(&mut self, width: u32, height: u32) -> Page {
        let page = self.page();
        self.call(
            Some(&page),
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        page
    }

    /// A page in a browser context of its own (its own storage and cookies).
    fn page(&mut self) -> Page {
        let context =
            self.call(None, "Target.createBrowserContext", json!({}))["browserContextId"].clone();
        let target = self.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank", "browserContextId": context}),
        )["targetId"]
            .clone();
        let session = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        )["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        Page { session }
    }

    /// A new phone: a page in a browser context of its own, 360×640 with touch, listening
    /// to its network (WebSocket frames) and its JavaScript errors.
    pub fn phone(&mut self) -> Page {
        let page = self.page();
        for (method, params) in [
            ("Page.enable", json!({})),
            ("Runtime.enable", json!({})),
            ("Network.enable", json!({})),
            (
                "Emulation.setDeviceMetricsOverride",
                json!({"width": 360, "height": 640, "deviceScaleFactor": 2, "mobile": true}),
            ),
            (
                "Emulation.setTouchEmulationEnabled",
                json!({"enabled": true, "maxTouchPoints": 5}),
            ),
            (
                "Emulation.setUserAgentOverride",
                json!({
                    "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
                    "acceptLanguage": "en-GB",
                }),
            ),
            // A phone in a pocket is not a background tab: timers run at full speed.
            (
                "Emulation.setFocusEmulationEnabled",
                json!({"enabled": true}),
            ),
        ] {
            self.call(Some(&page), method, params);
        }
        page
    }

    /// Shows an HTML document in the page.
    pub fn show_html(&mut self, page: &Page, html: &str) {
        use base64::Engine;
        let encoded = base64::engine::general_purpose::STANDARD.encode(html);
        self.go(
            page,
            &format!("data:text/html;charset=utf-8;base64,{encoded}"),
        );
    }

    /// Opens `url` in the page and waits until it has loaded.
    pub fn go(&mut self, page: &Page, url: &str) {
        self.call(Some(page), "Page.navigate", json!({ "url": url }));
        self.wait_loaded(page, url);
    }

    fn wait_loaded(&mut self, page: &Page, url: &str) {
        let loaded = format!(
            "document.readyState === 'complete' && location.href === {}",
            json!(url)
        );
        let deadline = Instant::now() + COMMAND_TIMEOUT;
        while self.eval(page, &loaded) != json!(true) {
            assert!(Instant::now() < deadline, "{url} did not load");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Evaluates a JavaScript expression in the page and returns its value (as JSON); a
    /// thrown error fails the test.
    pub fn eval(&mut self, page: &Page, expression: &str) -> Value {
        let result = self.call(
            Some(page),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("the page threw evaluating {expression:.80}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// A finger's tap at a point of the page's viewport (CSS pixels).
    pub fn tap(&mut self, page: &Page, x: f64, y: f64) {
        self.call(
            Some(page),
            "Input.dispatchTouchEvent",
            json!({"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}),
        );
        self.call(
            Some(page),
            "Input.dispatchTouchEvent",
            json!({"type": "touchEnd", "touchPoints": []}),
        );
    }

    /// Cuts (or gives back) the page's network, as a phone losing its Wi-Fi.
    pub fn offline(&mut self, page: &Page, offline: bool) {
        self.call(
            Some(page),
            "Network.emulateNetworkConditions",
            json!({"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
        );
    }

    /// Reloads the page, as a player pulling to refresh, and waits until it has loaded.
    pub fn reload(&mut self, page: &Page) {
        let url = self.eval(page, "location.href");
        self.call(Some(page), "Page.reload", json!({}));
        self.wait_loaded(page, url.as_str().expect("the page's address"));
    }

    /// A PNG of what the page shows (the whole page when `full`).
    pub fn screenshot(&mut self, page: &Page, full: bool) -> Vec<u8> {
        let result = self.call(
            Some(page),
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": full}),
        );
        use base64::Engine;
        let data = result["data"].as_str().expect("a screenshot");
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("Chromium sends its screenshots in base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.socket.send(Message::text(
            json!({"id": 0, "method": "Browser.close", "params": {}}).to_string(),
        ));
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads Chromium's standard error until it says where its DevTools listen.
fn devtools_url(child: &mut Child) -> String {
    let stderr = child.stderr.take().expect("Chromium's standard error");
    let (found_in, found) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut said = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("ws://") {
                let _ = found_in.send(Ok(line[at..].trim().to_string()));
            } else if said.len() < 40 {
                said.push(line);
            }
        }
        let _ = found_in.send(Err(said.join("\n")));
    });
    match found.recv_timeout(Duration::from_secs(60)) {
        Ok(Ok(url)) => url,
        Ok(Err(said)) => panic!("Chromium stopped before opening its DevTools:\n{said}"),
        Err(_) => panic!("Chromium did not open its DevTools within a minute"),
    }
}
