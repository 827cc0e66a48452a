//! robots.txt as RFC 9309 (Robots Exclusion Protocol) defines it: the groups for our product
//! token, or else the `*` groups, merged; `Allow`/`Disallow` patterns with `*` and a final `$`;
//! the longest matching pattern decides, `Allow` winning a tie. `Crawl-delay` is not in the RFC
//! but is widely honoured, and a polite crawler should.

use std::time::Duration;

use url::Url;

/// How much of a robots.txt is parsed; RFC 9309 §2.5 asks for at least 500 KiB.
const MAX_ROBOTS_BYTES: usize = 500 * 1024;

/// The longest `Crawl-delay` honoured; a site asking for more gets this (a day per 100 pages).
const MAX_CRAWL_DELAY: Duration = Duration::from_secs(900);

/// The rules of one robots.txt for one user agent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Robots {
    /// `(allow, pattern)` in file order.
    rules: Vec<(bool, String)>,
    crawl_delay: Option<Duration>,
}

/// One `User-agent` group while parsing.
#[derive(Default)]
struct Group {
    agents: Vec<String>,
    rules: Vec<(bool, String)>,
    crawl_delay: Option<Duration>,
}

impl Robots {
    /// Everything allowed: what a missing robots.txt (HTTP 4xx) means (RFC 9309 §2.3.1.3).
    pub fn allow_all() -> Robots {
        Robots::default()
    }

    /// Everything disallowed: what an unreachable robots.txt (HTTP 5xx) means (§2.3.1.4).
    pub fn disallow_all() -> Robots {
        Robots {
            rules: vec![(false, "/".to_string())],
            crawl_delay: None,
        }
    }

    /// The rules of `text` that apply to `user_agent` (a `User-Agent` value such as
    /// `pagelevel/0.1.0`; its product token before the `/` is what groups are matched on).
    pub fn parse(text: &str, user_agent: &str) -> Robots {
        let token = user_agent
            .split(['/', ' '])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let groups = parse_groups(cut_to_limit(text));
        let ours = |group: &&Group| group.agents.contains(&token);
        let everyone = |group: &&Group| group.agents.iter().any(|agent| agent == "*");
        let chosen: Vec<&Group> = if groups.iter().any(|group| ours(&group)) {
            groups.iter().filter(ours).collect()
        } else {
            groups.iter().filter(everyone).collect()
        };
        Robots {
            rules: chosen
                .iter()
                .flat_map(|group| group.rules.iter().cloned())
                .collect(),
            crawl_delay: chosen.iter().filter_map(|group| group.crawl_delay).max(),
        }
    }

    /// Whether `url` may be fetched. `/robots.txt` itself always may (§2.2.2).
    pub fn allows(&self, url: &Url) -> bool {
        let mut target = normalize_escapes(url.path());
        if let Some(query) = url.query() {
            target.push('?');
            target.push_str(&normalize_escapes(query));
        }
        if target == "/robots.txt" {
            return true;
        }
        let mut best: Option<(usize, bool)> = None;
        for (allow, pattern) in &self.rules {
            if !matches(pattern, &target) {
                continue;
            }
            let length = pattern.len();
            best = match best {
                Some((best_length, best_allow))
                    if best_length > length || (best_length == length && best_allow) =>
                {
                    Some((best_length, best_allow))
                }
                _ => Some((length, *allow)),
            };
        }
        best.is_none_or(|(_, allow)| allow)
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

fn parse_groups(text: &str) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    // A `User-agent` line after rules starts a new group; consecutive ones share a group.
    let mut collecting_agents = false;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        match key.as_str() {
            "user-agent" => {
                if !collecting_agents {
                    groups.push(Group::default());
                    collecting_agents = true;
                }
                if let Some(group) = groups.last_mut() {
                    group.agents.push(value.to_ascii_lowercase());
                }
            }
            "allow" | "disallow" => {
                collecting_agents = false;
                let Some(group) = groups.last_mut() else {
                    continue;
                };
                // An empty `Disallow:` allows everything, which no rule at all already does.
                if !value.is_empty() {
                    group.rules.push((key == "allow", normalize_escapes(value)));
                }
            }
            "crawl-delay" => {
                collecting_agents = false;
                let seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0);
                if let (Some(group), Some(seconds)) = (groups.last_mut(), seconds) {
                    let delay = Duration::from_secs_f64(seconds.min(MAX_CRAWL_DELAY.as_secs_f64()));
                    group.crawl_delay = Some(delay);
                }
            }
            // Sitemap and unknown lines neither end nor start a group.
            _ => {}
        }
    }
    groups
}

/// Upper-cases percent escapes so `%2f` in a pattern matches `%2F` in a URL (§2.2.2).
fn normalize_escapes(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut normalized = String::with_capacity(text.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && index + 2 < bytes.len()
            && bytes[index + 1].is_ascii_hexdigit()
            && bytes[index + 2].is_ascii_hexdigit()
        {
            normalized.push('%');
            normalized.push(char::from(bytes[index + 1].to_ascii_uppercase()));
            normalized.push(char::from(bytes[index + 2].to_ascii_uppercase()));
            index += 3;
        } else {
            let rest = &text[index..];
            let Some(character) = rest.chars().next() else {
                break;
            };
            normalized.push(character);
            index += character.len_utf8();
        }
    }
    normalized
}

/// Whether a robots.txt pattern matches a path (with query): a prefix match where `*` is any
/// run of characters and a final `$` anchors the end.
fn matches(pattern: &str, target: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(stripped) => (stripped, true),
        None => (pattern, false),
    };
    let pattern = pattern.as_bytes();
    let target = target.as_bytes();
    // Classic wildcard matching with one backtracking point; linear in practice.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    loop {
        if p == pattern.len() {
            if !anchored || t == target.len() {
                return true;
            }
        } else if pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
            continue;
        } else if t < target.len() && pattern[p] == target[t] {
            p += 1;
            t += 1;
            continue;
        }
        match star {
            Some((star_p, star_t)) if star_t < target.len() => {
                star = Some((star_p, star_t + 1));
                p = star_p + 1;
                t = star_t + 1;
            }
            _ => return false,
        }
    }
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
        assert!(matches("/a*b*c", "/axxbyyc/z"));
        assert!(!matches("/a*b*c$", "/axxbyyc/z"));
        assert!(matches("*", ""));
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
