use std::fs;

use super::*;

fn directory(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

#[test]
fn hyperlink_distance_follows_definition_2() {
    let math = directory(&["www.upv.es", "research", "math"]);
    assert_eq!(hyperlink_distance(&math, &math), 0);
    let geometry = directory(&["www.upv.es", "research", "math", "geometry"]);
    assert_eq!(hyperlink_distance(&math, &geometry), 1);
    let research = directory(&["www.upv.es", "research"]);
    assert_eq!(hyperlink_distance(&math, &research), -1);
    let dynamics = directory(&["www.upv.es", "research", "physics", "dynamics"]);
    assert_eq!(hyperlink_distance(&math, &dynamics), -1);
    let other_host = directory(&["www.tesco.es"]);
    assert_eq!(hyperlink_distance(&math, &other_host), -3);
}

#[test]
fn links_in_the_key_pages_directory_come_before_subdirectories_and_outside() {
    let key = Url::parse("http://x/a/key.html").expect("url");
    let html = "<html><body><a href='/top.html'>t</a><a href='sub/page.html'>s</a>\
                <a href='same.html'>m</a><a href='http://other/'>o</a></body></html>";
    let page = Page::parse(
        html.as_bytes(),
        Some(key.clone()),
        None,
        &Default::default(),
    )
    .expect("page");
    let links = sorted_links(
        &key,
        &page.dom,
        key_links(&key, &page, &DiskSource::default()),
    );
    let order: Vec<&str> = links.iter().map(|link| link.url.path()).collect();
    assert_eq!(order, ["/a/same.html", "/a/sub/page.html", "/top.html"]);
}

/// Writes a site where `a`, `b`, `c` link to each other (a menu) and `lonely` links to no one.
fn menu_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let menu = "<ul><li><a href='a.html'>A</a></li><li><a href='b.html'>B</a></li>\
                <li><a href='c.html'>C</a></li></ul>";
    for name in ["a", "b", "c"] {
        let html = format!("<html><body>{menu}<p>page {name}</p></body></html>");
        fs::write(dir.path().join(format!("{name}.html")), html).expect("write");
    }
    fs::write(
        dir.path().join("lonely.html"),
        "<html><body><p>no links</p></body></html>",
    )
    .expect("write");
    let key = format!(
        "<html><body><a href='lonely.html'>L</a><a href='missing.html'>M</a>{menu}</body></html>"
    );
    fs::write(dir.path().join("key.html"), key).expect("write");
    dir
}

#[test]
fn the_pages_a_menu_links_form_the_complete_subdigraph() {
    let site = menu_site();
    let key = crate::sitelevel::site::file_url(&site.path().join("key.html")).expect("key url");
    let result = sample(&key, 3, &mut DiskSource::default()).expect("sample");
    let names: Vec<&str> = result
        .pages
        .iter()
        .map(|url| {
            url.path_segments()
                .and_then(|mut s| s.next_back())
                .unwrap_or("")
        })
        .collect();
    assert_eq!(names, ["key.html", "a.html", "b.html", "c.html"]);
    // key, then lonely (first in document order), then the menu links, which lie farthest
    // from it in the DOM; missing.html is never needed.
    assert_eq!(result.loads, 5);
    assert!(result.skipped.is_empty());
}

#[test]
fn without_a_complete_subdigraph_of_the_size_the_largest_one_is_returned() {
    let site = menu_site();
    let key = crate::sitelevel::site::file_url(&site.path().join("key.html")).expect("key url");
    let result = sample(&key, 4, &mut DiskSource::default()).expect("sample");
    assert_eq!(result.pages.len(), 4, "key page and a 3-CS");
}
