//! A headline without the site's name: "Headline | Site", "Site - Headline", "Headline – Site"
//! become "Headline" when the page shows which part is the site — its declared site name, its
//! host name, or an `<h1>` that is the rest. Without such evidence the title stays whole: a
//! part after a dash is as often the headline's own ("Review - Chapter 1") as the site's.

/// Separators between a headline and a site name, spaces included (a hyphen inside a word is
/// not one).
const SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " :: ", " · ", " » ", " « ", " // ", " • ", " : ", ": ",
];

/// The title without a site-name prefix or suffix; `site_names` are what the page calls its
/// site (declared names, its host), `headings` its `<h1>` texts.
pub fn clean_title(title: &str, site_names: &[&str], headings: &[String]) -> String {
    let parts = split_parts(title);
    if parts.len() < 2 {
        return title.to_string();
    }
    let sites: Vec<String> = site_names
        .iter()
        .map(|name| comparable(name))
        .filter(|name| !name.is_empty())
        .collect();
    let is_site = |part: &str| {
        let part = comparable(part);
        !part.is_empty() && sites.contains(&part)
    };
    let (mut first, mut last) = (0, parts.len());
    while last - first > 1 && is_site(parts[last - 1].1) {
        last -= 1;
    }
    while last - first > 1 && is_site(parts[first].1) {
        first += 1;
    }
    if (first, last) != (0, parts.len()) {
        return span(title, &parts, first, last).to_string();
    }
    // An `<h1>` equal to the title less its first or last part says which part is the site,
    // unless the part cut is much longer than the rest: then the `<h1>` is the site's logo. A
    // site name leads a title less often than it ends one, so a first part must be the shorter.
    let headings: Vec<String> = headings.iter().map(|h| comparable(h)).collect();
    for (from, to, cut, most) in [
        (0, parts.len() - 1, parts.len() - 1, 2),
        (1, parts.len(), 0, 1),
    ] {
        let rest = span(title, &parts, from, to);
        let logo = parts[cut].1.chars().count() > most * rest.chars().count();
        if !logo && headings.contains(&comparable(rest)) {
            return rest.to_string();
        }
    }
    title.to_string()
}

/// The title's parts: `(start byte, text)` between separators.
fn split_parts(title: &str) -> Vec<(usize, &str)> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < title.len() {
        match SEPARATORS
            .iter()
            .find(|separator| title[at..].starts_with(*separator))
        {
            Some(separator) => {
                parts.push((start, &title[start..at]));
                at += separator.len();
                start = at;
            }
            None => at += title[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    parts.push((start, &title[start..]));
    parts
}

/// The title text from part `from` to before part `to`, separators inside kept.
fn span<'a>(title: &'a str, parts: &[(usize, &'a str)], from: usize, to: usize) -> &'a str {
    let (start, _) = parts[from];
    let (last_start, last_text) = parts[to - 1];
    title[start..last_start + last_text.len()].trim()
}

/// A name as compared: letters and digits only, lower-cased ("Aktuálně.cz" = "aktuálněcz").
pub(super) fn comparable(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_site_name_is_cut_from_either_end() {
        assert_eq!(
            clean_title("Rain today | The Daily", &["The Daily"], &[]),
            "Rain today"
        );
        assert_eq!(
            clean_title("The Daily - Rain today", &["the daily"], &[]),
            "Rain today"
        );
        assert_eq!(
            clean_title("Rain today – BBC News", &["BBC News"], &[]),
            "Rain today"
        );
        assert_eq!(
            clean_title("Rain - today | Site | Section", &["Site", "Section"], &[]),
            "Rain - today",
            "several site parts go, the headline's own dash stays"
        );
    }

    #[test]
    fn the_host_name_counts_as_the_site_name() {
        assert_eq!(
            clean_title("Rain today | eHow", &["ehow"], &[]),
            "Rain today"
        );
    }

    #[test]
    fn a_heading_equal_to_the_rest_says_which_part_is_the_site() {
        let headings = ["Rain today".to_string()];
        assert_eq!(
            clean_title("Rain today | Unknown Name", &[], &headings),
            "Rain today"
        );
        assert_eq!(
            clean_title("Daily: Rain today", &[], &headings),
            "Rain today"
        );
    }

    #[test]
    fn without_evidence_of_a_site_the_title_stays_whole() {
        assert_eq!(
            clean_title("Review - Chapter 1", &[], &[]),
            "Review - Chapter 1"
        );
        assert_eq!(clean_title("The Daily", &["The Daily"], &[]), "The Daily");
        assert_eq!(
            clean_title("The Daily | The Daily", &["The Daily"], &[]),
            "The Daily"
        );
        assert_eq!(clean_title("well-known", &["known"], &[]), "well-known");
    }
}
