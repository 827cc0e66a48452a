//! HTTP GET for `http://` and `https://` (rustls, Mozilla's roots) through `ureq`, with the
//! limits a crawler of unknown sites needs: connect, per-read and total timeouts, a body size
//! cap, and redirects followed here rather than inside `ureq`, so that each hop can be held to
//! the same-host rule.

use std::time::{Duration, Instant};

use url::Url;

use super::{FetchError, USER_AGENT, charset_from_content_type};

/// Which redirects [`HttpClient::get`] follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectPolicy {
    /// Only to the same host name (`http://a/` → `https://a/x` is fine, `→ http://b/` is not).
    SameHost,
    /// To any http(s) URL.
    AnyHost,
}

/// Limits of one GET.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Time to resolve the host and open the connection (with TLS).
    pub connect_timeout: Duration,
    /// Longest wait for any single read from the connection.
    pub read_timeout: Duration,
    /// The whole request, redirects and body included.
    pub total_timeout: Duration,
    /// Largest body accepted, in bytes.
    pub max_body_bytes: u64,
    /// Most redirects followed; 0 returns the 3xx response itself.
    pub max_redirects: u32,
    /// Which redirects may be followed ([`RedirectPolicy::SameHost`] by default).
    pub redirects: RedirectPolicy,
    /// The `User-Agent` header sent ([`USER_AGENT`] by default).
    pub user_agent: String,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(60),
            // The page parser's own default limit: a bigger page would be refused anyway.
            max_body_bytes: 16 * 1024 * 1024,
            max_redirects: 5,
            redirects: RedirectPolicy::SameHost,
            user_agent: USER_AGENT.to_string(),
        }
    }
}

/// A response, after redirects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The HTTP status code of the last hop (a 3xx when redirects were not followed).
    pub status: u16,
    /// The URL that answered, after redirects.
    pub url: Url,
    /// Response headers, names lower-case, in order.
    pub headers: Vec<(String, String)>,
    /// The body, content encoding (gzip) undone.
    pub body: Vec<u8>,
    /// The `Content-Type` charset, when there is one.
    pub charset: Option<String>,
}

impl HttpResponse {
    /// The value of the first header with this (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The absolute target of a redirect response, if this is one.
    pub fn redirect_target(&self) -> Option<Url> {
        if !(300..400).contains(&self.status) {
            return None;
        }
        self.url.join(self.header("location")?.trim()).ok()
    }
}

/// An HTTP client with fixed limits; reuses connections between requests.
pub struct HttpClient {
    agent: ureq::Agent,
    options: HttpOptions,
}

impl HttpClient {
    /// A client with these limits; ureq's own redirect handling is off, [`HttpClient::get`]
    /// follows them.
    pub fn new(options: HttpOptions) -> HttpClient {
        let agent = ureq::Agent::config_builder()
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent(options.user_agent.as_str())
            .timeout_connect(Some(options.connect_timeout))
            .timeout_per_read(Some(options.read_timeout))
            .build()
            .new_agent();
        HttpClient { agent, options }
    }

    /// The limits this client was built with.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    /// GETs `url`, following redirects as the options allow. Any status is returned as a
    /// response; only transport failures, limits and refused redirects are errors.
    pub fn get(&self, url: &Url) -> Result<HttpResponse, FetchError> {
        let deadline = Instant::now() + self.options.total_timeout;
        let mut current = url.clone();
        let mut redirects = 0;
        loop {
            let response = self.get_once(&current, deadline)?;
            let Some(target) = response.redirect_target() else {
                return Ok(response);
            };
            if self.options.max_redirects == 0 {
                return Ok(response);
            }
            if redirects == self.options.max_redirects {
                return Err(FetchError::TooManyRedirects {
                    url: url.to_string(),
                    limit: self.options.max_redirects,
                });
            }
            check_scheme(&target)?;
            if self.options.redirects == RedirectPolicy::SameHost
                && target.host_str() != current.host_str()
            {
                return Err(FetchError::OffHostRedirect {
                    url: current.to_string(),
                    target: target.to_string(),
                });
            }
            redirects += 1;
            current = target;
        }
    }

    fn get_once(&self, url: &Url, deadline: Instant) -> Result<HttpResponse, FetchError> {
        check_scheme(url)?;
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(timeout(url, "total"));
        }
        let mut response = self
            .agent
            .get(url.as_str())
            .config()
            .timeout_global(Some(remaining))
            .build()
            .call()
            .map_err(|error| ureq_error(url, self.options.max_body_bytes, error))?;
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_string(), value)
            })
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(self.options.max_body_bytes)
            .read_to_vec()
            .map_err(|error| ureq_error(url, self.options.max_body_bytes, error))?;
        let charset = headers
            .iter()
            .find(|(name, _)| name == "content-type")
            .and_then(|(_, value)| charset_from_content_type(value));
        Ok(HttpResponse {
            status,
            url: url.clone(),
            headers,
            body,
            charset,
        })
    }
}

fn check_scheme(url: &Url) -> Result<(), FetchError> {
    match url.scheme() {
        "http" | "https" => Ok(()),
        _ => Err(FetchError::UnsupportedScheme {
            url: url.to_string(),
        }),
    }
}

fn timeout(url: &Url, phase: &str) -> FetchError {
    FetchError::Timeout {
        url: url.to_string(),
        phase: phase.to_string(),
    }
}

fn ureq_error(url: &Url, limit: u64, error: ureq::Error) -> FetchError {
    match error {
        ureq::Error::Timeout(phase) => timeout(url, &phase.to_string()),
        ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge {
            url: url.to_string(),
            limit,
        },
        other => FetchError::Http {
            url: url.to_string(),
            source: Box::new(other),
        },
    }
}
