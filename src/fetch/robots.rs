//! robots.txt as RFC 9309 (Robots Exclusion Protocol) defines it, parsed and matched by the
//! `texting_robots` crate (tested against Google's robots.txt conformance cases): the groups for
//! our product token, or else the `*` groups; `Allow`/`Disallow` patterns with `*` and a final
//! `$`, compared with non-ASCII characters percent-encoded; the longest matching pattern
//! decides, `Allow` winning a tie. `Crawl-delay` is not in the RFC but is widely honoured, and a
//! polite crawler should. What we add: the size limit, percent escapes compared without regard
//! to case, and a file the matcher cannot take forbidding everything.

use std::time::Duration;

use texting_robots::Robot;
use url::{Position, Url};

/// How much of a robots.txt is parsed; RFC 9309 §2.5 asks for at least 500 KiB.
const MAX_ROBOTS_BYTES: usize = 500 * 1024;

/// The longest `Crawl-delay` honoured; a site asking for more gets this (a day per 100 pages).
const MAX_CRAWL_DELAY: Duration = Duration::from_secs(900);

/// The rules of one robots.txt for one user agent.
#[derive(Debug)]
pub struct Robots {
    access: Access,
    crawl_delay: Option<Duration>,
}

/// What a robots.txt grants.
#[derive(Debug)]
enum Access {
    Everything,
    Nothing,
    /// The file's rules for our user agent.
    Rules(Box<Robot>),
}

impl Robots {
    /// Everything allowed: what a missing robots.txt (HTTP 4xx) means (RFC 9309 §2.3.1.3).
    pub fn allow_all() -> Robots {
        Robots {
            access: Access::Everything,
            crawl_delay: None,
        }
    }

    /// Everything disallowed: what an unreachable robots.txt (HTTP 5xx) means (§2.3.1.4).
    pub fn disallow_all() -> Robots {
        Robots {
            access: Access::Nothing,
            crawl_delay: None,
        }
    }

    /// The rules of `text` that apply to `user_agent` (a `User-Agent` value such as
    /// `pagelevel/0.1.0`; its product token before the `/` is what groups are matched on, in
    /// any case). A file the matcher rejects (a rule too complex to compile) forbids everything:
    /// what it allows cannot be known.
    pub fn parse(text: &str, user_agent: &str) -> Robots {
        let token = user_agent.split(['/', ' ']).next().unwrap_or_default();
        let text = upper_case_escapes(cut_to_limit(text));
        match Robot::new(token, text.as_bytes()) {
            Ok(robot) => Robots {
                crawl_delay: robot
                    .delay
                    .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
                    .map(|seconds| {
                        Duration::from_secs_f64(
                            f64::from(seconds).min(MAX_CRAWL_DELAY.as_secs_f64()),
                        )
                    }),
                access: Access::Rules(Box::new(robot)),
            },
            Err(_) => Robots::disallow_all(),
        }
    }

    /// Whether `url` may be fetched. `/robots.txt` itself always may (§2.2.2).
    pub fn allows(&self, url: &Url) -> bool {
        match &self.access {
            Access::Everything => true,
            Access::Nothing => url.path() == "/robots.txt",
            // The path and query as sent, percent-encoded by `Url`; the fragment is not sent.
            Access::Rules(robot) => robot.allowed(&upper_case_escapes(
                &url[Position::BeforePath..Position::AfterQuery],
            )),
        }
    }

    /// The site's requested delay between requests, capped at 15 minutes.
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.crawl_delay.map(|delay| delay.min(MAX_CRAWL_DELAY))
    }
}

fn cut_to_limit(text: &str) -> &str {
    if text.len() <= MAX_ROBOTS_BYTES {
        return text;
    }
    let mut end = MAX_ROBOTS_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Upper-cases percent escapes so `%2f` in a pattern matches `%2F` in a URL: RFC 3986 makes
/// them the same octet, and the matcher compares text.
fn upper_case_escapes(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for index in 0..bytes.len().saturating_sub(2) {
        if bytes[index] == b'%'
            && bytes[index + 1].is_ascii_hexdigit()
            && bytes[index + 2].is_ascii_hexdigit()
        {
            bytes[index + 1].make_ascii_uppercase();
            bytes[index + 2].make_ascii_uppercase();
        }
    }
    // Only ASCII hex digits changed, so the bytes are still the text's UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(path: &str) -> Url {
        Url::parse("http://example.org")
            .and_then(|base| base.join(path))
            .expect("a valid test URL")
    }

    const ROBOTS: &str = "\
# a typical file
User-agent: *
Disallow: /private/
Allow: /private/open.html
Disallow: /*.pdf$
Disallow: /search?q=
Crawl-delay: 2

User-agent: pagelevel
User-agent: otherbot
Disallow: /not-for-pagelevel
Crawl-delay: 0.5
";

    #[test]
    fn our_own_group_replaces_the_star_group() {
        let robots = Robots::parse(ROBOTS, "pagelevel/0.1.0");
        assert!(!robots.allows(&url("/not-for-pagelevel/x")));
        assert!(robots.allows(&url("/private/secret.html")));
        assert_eq!(robots.crawl_delay(), Some(Duration::from_millis(500)));
    }

    #[test]
    fn other_agents_follow_the_star_group() {
        let robots = Robots::parse(ROBOTS, "somebot/2.0");
        assert!(!robots.allows(&url("/private/secret.html")));
        assert!(robots.allows(&url("/not-for-pagelevel/x")));
        assert_eq!(robots.crawl_delay(), Some(Duration::from_secs(2)));
    }

    #[test]
    fn the_longest_matching_pattern_wins() {
        let robots = Robots::parse(ROBOTS, "somebot");
        assert!(robots.allows(&url("/private/open.html")));
        assert!(!robots.allows(&url("/private/closed.html")));
    }

    #[test]
    fn allow_wins_a_tie_between_equally_long_patterns() {
        let robots = Robots::parse("User-agent: *\nDisallow: /page\nAllow: /page\n", "bot");
        assert!(robots.allows(&url("/page")));
    }

    #[test]
    fn a_star_matches_any_run_and_a_dollar_anchors_the_end() {
        let robots = Robots::parse(ROBOTS, "somebot");
        assert!(!robots.allows(&url("/docs/manual.pdf")));
        assert!(robots.allows(&url("/docs/manual.pdf.html")));
        assert!(!robots.allows(&url("/search?q=octave")));
        assert!(robots.allows(&url("/search?page=2")));
        let stars = Robots::parse("User-agent: *\nDisallow: /a*b*c$\nDisallow: /x*y\n", "bot");
        assert!(!stars.allows(&url("/axxbyyc")));
        assert!(stars.allows(&url("/axxbyyc/z")));
        assert!(!stars.allows(&url("/x/1/y/2")));
    }

    #[test]
    fn non_ascii_patterns_match_the_percent_encoded_url() {
        let robots = Robots::parse("User-agent: *\nDisallow: /caf\u{e9}\n", "bot");
        assert!(!robots.allows(&url("/caf%C3%A9/menu")));
        assert!(!robots.allows(&url("/caf\u{e9}/menu")));
        assert!(robots.allows(&url("/cafe/menu")));
    }

    /// The examples of Google's robots.txt specification ("Order of precedence for rules" and
    /// "URL matching based on path values").
    #[test]
    fn googles_precedence_and_pattern_examples_hold() {
        let verdicts = |rules: &str, paths: &[(&str, bool)]| {
            let robots = Robots::parse(&format!("User-agent: *\n{rules}"), "bot");
            for &(path, allowed) in paths {
                assert_eq!(robots.allows(&url(path)), allowed, "{rules:?} on {path}");
            }
        };
        verdicts("Allow: /p\nDisallow: /\n", &[("/page", true)]);
        verdicts(
            "Allow: /folder\nDisallow: /folder\n",
            &[("/folder/page", true)],
        );
        verdicts("Allow: /page\nDisallow: /*.htm\n", &[("/page.htm", false)]);
        verdicts(
            "Allow: /$\nDisallow: /\n",
            &[("/", true), ("/page.htm", false)],
        );
        verdicts(
            "Disallow: /fish*\n",
            &[
                ("/fish", false),
                ("/fish.html", false),
                ("/Fish.asp", true),
                ("/catfish", true),
            ],
        );
        verdicts(
            "Disallow: /*.php$\n",
            &[
                ("/filename.php", false),
                ("/folder/filename.php", false),
                ("/filename.php?parameters", true),
                ("/filename.php5", true),
                ("/windows.PHP", true),
            ],
        );
        verdicts(
            "Disallow: /fish*.php\n",
            &[
                ("/fish.php", false),
                ("/fishheads/catfish.php?parameters", false),
                ("/Fish.PHP", true),
            ],
        );
    }

    #[test]
    fn a_file_the_matcher_cannot_compile_forbids_everything() {
        let monster = format!("User-agent: *\nDisallow: /{}$\n", "a*".repeat(20_000));
        let robots = Robots::parse(&monster, "bot");
        assert!(!robots.allows(&url("/index.html")));
        assert!(robots.allows(&url("/robots.txt")));
    }

    #[test]
    fn an_empty_disallow_allows_everything_and_robots_txt_is_always_allowed() {
        let robots = Robots::parse("User-agent: *\nDisallow:\n", "bot");
        assert!(robots.allows(&url("/anything")));
        assert!(Robots::disallow_all().allows(&url("/robots.txt")));
        assert!(!Robots::disallow_all().allows(&url("/index.html")));
    }

    #[test]
    fn percent_escapes_compare_case_insensitively() {
        let robots = Robots::parse("User-agent: *\nDisallow: /a%2fb\n", "bot");
        assert!(!robots.allows(&url("/a%2Fb")));
    }

    #[test]
    fn rules_before_any_user_agent_and_garbage_lines_are_ignored() {
        let robots = Robots::parse("Disallow: /\n<html>\nUser-agent: *\nDisallow: /x\n", "bot");
        assert!(robots.allows(&url("/")));
        assert!(!robots.allows(&url("/x")));
    }

    #[test]
    fn agent_tokens_are_matched_case_insensitively() {
        let robots = Robots::parse("User-agent: PageLevel\nDisallow: /\n", "pagelevel/0.1.0");
        assert!(!robots.allows(&url("/a")));
    }
}
