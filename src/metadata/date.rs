//! Publication dates as pages write them, read into ISO 8601: `2021-03-05` when the page gives a
//! day, `2021-03-05T10:00:00` with its time, `2021-03-05T10:00:00+01:00` with its time zone.
//!
//! Pages write dates more loosely than any one standard: RFC 3339 with or without seconds,
//! fractions, colon in the offset or a space for the `T` (`2017-11-03 03:01:00.000000`,
//! `2021-11-01T10:52:50+0100`), RFC 2822 (`Tue, 05 Mar 2021 10:00:00 GMT`), slashes
//! (`2021/03/05`), and words (`March 5, 2021`, `5 March 2021`, `Mar. 5th, 2021 at 3:46 PM`). One
//! tokenizer reads them all; a date-time crate would still need every one of these patterns
//! spelled out. A value that is not a real calendar day, or is outside [`YEARS`], is no date.

use std::ops::RangeInclusive;

/// Years accepted as a publication date: a `date` meta holding `0001-01-01` or `9999` is a
/// placeholder, not a date.
const YEARS: RangeInclusive<u32> = 1800..=2200;

/// Longest text read as a date; a longer value is a sentence that mentions one.
const MAX_DATE_CHARS: usize = 80;

/// English month names and their usual abbreviations (RFC 2822 uses the three-letter ones).
const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// English weekday names (their three-letter abbreviations are prefixes).
const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Time zones RFC 2822 names (section 4.3), as offsets in minutes.
const ZONES: &[(&str, i32)] = &[
    ("z", 0),
    ("gmt", 0),
    ("utc", 0),
    ("ut", 0),
    ("est", -300),
    ("edt", -240),
    ("cst", -360),
    ("cdt", -300),
    ("mst", -420),
    ("mdt", -360),
    ("pst", -480),
    ("pdt", -420),
];

/// A calendar day with, when the page gives them, a time and an offset from UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DateTime {
    year: u32,
    month: u32,
    day: u32,
    time: Option<(u32, u32, u32)>,
    offset_minutes: Option<i32>,
}

impl DateTime {
    fn iso(&self) -> String {
        let day = format!("{:04}-{:02}-{:02}", self.year, self.month, self.day);
        let Some((hour, minute, second)) = self.time else {
            return day;
        };
        let time = format!("{day}T{hour:02}:{minute:02}:{second:02}");
        match self.offset_minutes {
            Some(offset) => {
                let sign = if offset < 0 { '-' } else { '+' };
                let offset = offset.abs();
                format!("{time}{sign}{:02}:{:02}", offset / 60, offset % 60)
            }
            None => time,
        }
    }
}

/// The date a text gives, in ISO 8601; `None` when it gives no valid one.
pub fn parse_date(text: &str) -> Option<String> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_DATE_CHARS {
        return None;
    }
    let date = numeric_date(text).or_else(|| worded_date(text))?;
    let valid = YEARS.contains(&date.year)
        && (1..=12).contains(&date.month)
        && (1..=days_in_month(date.year, date.month)).contains(&date.day)
        && date
            .time
            .is_none_or(|(hour, minute, second)| hour < 24 && minute < 60 && second < 61);
    valid.then(|| date.iso())
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `YYYY-MM-DD`, `YYYY/MM/DD` or `YYYY.MM.DD`, then an optional time and zone; or the European
/// `DD.MM.YYYY`.
fn numeric_date(text: &str) -> Option<DateTime> {
    let bytes = text.as_bytes();
    let digits = |from: usize, count: usize| -> Option<u32> {
        let slice = bytes.get(from..from + count)?;
        slice
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| slice.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0')))
    };
    if let (Some(year), Some(&separator)) = (digits(0, 4), bytes.get(4))
        && matches!(separator, b'-' | b'/' | b'.')
    {
        let (month, month_len) = number_at(bytes, 5)?;
        if bytes.get(5 + month_len) != Some(&separator) {
            return None;
        }
        let (day, day_len) = number_at(bytes, 6 + month_len)?;
        let rest = &text[6 + month_len + day_len..];
        let (time, offset_minutes) = time_and_zone(rest.trim_start_matches(['T', 't', ' ']));
        return Some(DateTime {
            year,
            month,
            day,
            time,
            offset_minutes,
        });
    }
    let (day, day_len) = number_at(bytes, 0)?;
    let (month, month_len) = number_at(bytes, day_len + 1)?;
    let year = digits(day_len + month_len + 2, 4)?;
    let dotted =
        bytes.get(day_len) == Some(&b'.') && bytes.get(day_len + month_len + 1) == Some(&b'.');
    dotted.then_some(DateTime {
        year,
        month,
        day,
        time: None,
        offset_minutes: None,
    })
}

/// One or two digits at `from`: the number and how many digits it took.
fn number_at(bytes: &[u8], from: usize) -> Option<(u32, usize)> {
    let count = bytes
        .get(from..)?
        .iter()
        .take(2)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if count == 0 || bytes.get(from + count).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let value = bytes[from..from + count]
        .iter()
        .fold(0, |n, b| n * 10 + u32::from(b - b'0'));
    Some((value, count))
}

/// `HH:MM[:SS[.fff]]` and an optional zone (`Z`, `±HH:MM`, `±HHMM`, `±HH`, `GMT`, `EST` …)
/// at the start of `text`; nothing when no time starts it.
fn time_and_zone(text: &str) -> (Option<(u32, u32, u32)>, Option<i32>) {
    let Some((time, rest)) = clock(text) else {
        return (None, None);
    };
    let rest = rest.trim_start();
    (Some(time), zone(rest))
}

/// A clock time at the start of `text` and the text after it (fractions of seconds skipped).
fn clock(text: &str) -> Option<((u32, u32, u32), &str)> {
    let bytes = text.as_bytes();
    let (hour, hour_len) = number_at(bytes, 0)?;
    if bytes.get(hour_len) != Some(&b':') {
        return None;
    }
    let (minute, minute_len) = number_at(bytes, hour_len + 1)?;
    let mut end = hour_len + 1 + minute_len;
    let mut second = 0;
    if bytes.get(end) == Some(&b':')
        && let Some((value, len)) = number_at(bytes, end + 1)
    {
        second = value;
        end += 1 + len;
        if bytes.get(end) == Some(&b'.') {
            end += 1 + bytes[end + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
        }
    }
    Some(((hour, minute, second), &text[end..]))
}

/// The offset a zone designator gives, in minutes east of UTC.
fn zone(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    match bytes.first()? {
        sign @ (b'+' | b'-') => {
            let two_digits = |from: usize| {
                let pair = bytes.get(from..from + 2)?;
                pair.iter()
                    .all(u8::is_ascii_digit)
                    .then(|| i32::from(pair[0] - b'0') * 10 + i32::from(pair[1] - b'0'))
            };
            let hours = two_digits(1)?;
            let minutes_at = if bytes.get(3) == Some(&b':') { 4 } else { 3 };
            let minutes = two_digits(minutes_at).unwrap_or(0);
            if hours > 14 || minutes > 59 {
                return None;
            }
            let offset = hours * 60 + minutes;
            Some(if *sign == b'-' { -offset } else { offset })
        }
        _ => {
            let word: String = text
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect::<String>()
                .to_ascii_lowercase();
            let named = ZONES.iter().find(|(name, _)| *name == word)?.1;
            let after = text[word.len()..].trim_start();
            // `GMT+0100`: a named zone with an offset from it.
            Some(
                named
                    + zone(after)
                        .filter(|_| after.starts_with(['+', '-']))
                        .unwrap_or(0),
            )
        }
    }
}

/// Dates in words: a month name, a day and a four-digit year in either order (`March 5, 2021`,
/// `5 March 2021`, `Tue, 05 Mar 2021 10:00:00 GMT`), a weekday and ordinal suffixes ignored, an
/// optional clock time with `am`/`pm` and zone.
fn worded_date(text: &str) -> Option<DateTime> {
    let mut month = None;
    let mut day = None;
    let mut year = None;
    let mut time = None;
    let mut offset_minutes = None;
    let mut afternoon = None;
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric() || c == '+' || c == '-') {
        rest = &rest[start..];
        if let Some((clock_time, after)) = clock(rest) {
            // "April 28, 2019 at 6:01 am Updated April 29, 2019 at 3:33 pm": the first one.
            if time.is_some() {
                break;
            }
            time = Some(clock_time);
            rest = after;
            continue;
        }
        if time.is_some() && offset_minutes.is_none() && rest.starts_with(['+', '-']) {
            offset_minutes = zone(rest);
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '+' || c == '-'))
            .unwrap_or(rest.len());
        let token = rest[..end].to_lowercase();
        rest = &rest[end..];
        let number = token.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h']);
        if let Ok(value) = number.parse::<u32>() {
            match number.len() {
                4 if year.is_none() => year = Some(value),
                1 | 2 if day.is_none() => day = Some(value),
                _ => {}
            }
        } else if let Some(index) = month_index(&token) {
            month = month.or(Some(index));
        } else if token == "am" || token == "pm" {
            afternoon = Some(token == "pm");
        } else if time.is_some() && offset_minutes.is_none() {
            offset_minutes = zone(&token);
        }
    }
    if let (Some((hour, minute, second)), Some(pm)) = (time, afternoon) {
        let hour = match (hour, pm) {
            (12, false) => 0,
            (hour, true) if hour < 12 => hour + 12,
            (hour, _) => hour,
        };
        time = Some((hour, minute, second));
    }
    Some(DateTime {
        year: year?,
        month: month?,
        day: day?,
        time,
        offset_minutes: offset_minutes.filter(|_| time.is_some()),
    })
}

/// Whether a word can open a date: a number, a month's or a weekday's name (`Monday,`, `Mar.`).
pub(super) fn opens_a_date(word: &str) -> bool {
    let word = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    word.starts_with(|c: char| c.is_ascii_digit())
        || month_index(&word).is_some()
        || (word.len() >= 3 && WEEKDAYS.iter().any(|day| day.starts_with(&word)))
}

/// The month a word names (`March`, `Mar`, `Mar.`, `Sept`), 1-based.
fn month_index(word: &str) -> Option<u32> {
    if word.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|month| month.starts_with(word) || (word == "sept" && *month == "september"))
        .map(|index| index as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_and_rfc3339_dates_keep_the_precision_the_page_gives() {
        assert_eq!(parse_date("2021-03-05").as_deref(), Some("2021-03-05"));
        assert_eq!(
            parse_date("2021-03-05T10:00:00+01:00").as_deref(),
            Some("2021-03-05T10:00:00+01:00")
        );
        assert_eq!(
            parse_date("2021-11-01T10:52:50+0100").as_deref(),
            Some("2021-11-01T10:52:50+01:00")
        );
        assert_eq!(
            parse_date("2015-03-27T13:07:55.096Z").as_deref(),
            Some("2015-03-27T13:07:55+00:00")
        );
        assert_eq!(
            parse_date("2017-11-03 03:01:00.000000").as_deref(),
            Some("2017-11-03T03:01:00")
        );
        assert_eq!(
            parse_date("2018-04-05T06:00").as_deref(),
            Some("2018-04-05T06:00:00")
        );
    }

    #[test]
    fn rfc2822_dates_read_their_named_zones() {
        assert_eq!(
            parse_date("Tue, 05 Mar 2021 10:00:00 GMT").as_deref(),
            Some("2021-03-05T10:00:00+00:00")
        );
        assert_eq!(
            parse_date("Fri, 10 Jul 2015 09:53:00 -0400").as_deref(),
            Some("2015-07-10T09:53:00-04:00")
        );
        assert_eq!(
            parse_date("Wed, 11 Mar 2015 15:46:00 EDT").as_deref(),
            Some("2015-03-11T15:46:00-04:00")
        );
    }

    #[test]
    fn slashed_dotted_and_worded_dates_are_read() {
        assert_eq!(parse_date("2021/03/05").as_deref(), Some("2021-03-05"));
        assert_eq!(parse_date("05.03.2021").as_deref(), Some("2021-03-05"));
        assert_eq!(parse_date("March 5, 2021").as_deref(), Some("2021-03-05"));
        assert_eq!(parse_date("5 March 2021").as_deref(), Some("2021-03-05"));
        assert_eq!(parse_date("Mar. 5th, 2021").as_deref(), Some("2021-03-05"));
        assert_eq!(
            parse_date("March 11, 2015 3:46 PM").as_deref(),
            Some("2015-03-11T15:46:00")
        );
    }

    #[test]
    fn impossible_or_ambiguous_dates_are_no_dates() {
        for text in [
            "",
            "yesterday",
            "2021-02-30",
            "2021-13-01",
            "0001-01-01",
            "03/05/2021",
            "2021-03-05T25:00:00",
            "12345678901234567890",
            "May",
            "2021",
        ] {
            assert_eq!(parse_date(text), None, "{text:?}");
        }
    }

    #[test]
    fn hostile_text_never_panics() {
        for text in [
            "2021-",
            "2021-1",
            "2021-1-",
            "2021-01-01T",
            "2021-01-01T1:",
            "2021-01-01T10:00:00.",
            "2021-01-01T10:00:00+",
            "2021-01-01T10:00:00+99:99",
            "é2021-01-01",
            "2021-01-01T10:00:00.ééé",
            "1.1.",
            "Mar 5 2021 10:00 GMT+",
            "-",
            "+",
        ] {
            let _ = parse_date(text);
        }
        assert_eq!(parse_date(&"9".repeat(100_000)), None);
    }
}
