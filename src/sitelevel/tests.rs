//! Properties every detector shares, on random pages.

use proptest::prelude::*;

use super::rtdm::Rtdm;
use super::{Method, SiteTemplateDetector, test_site};

/// Random `<body>` contents: nested blocks and inline elements with a few words.
fn body() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec!["alpha", "beta", "gamma", "delta", "home", "news"]);
    let leaf = prop_oneof![
        word.prop_map(str::to_owned),
        Just("<br>".to_owned()),
        Just("<a href='/x'>x</a>".to_owned()),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        (
            prop::sample::select(vec!["div", "p", "ul", "li", "span", "section"]),
            prop::collection::vec(inner, 1..4),
        )
            .prop_map(|(tag, children)| format!("<{tag}>{}</{tag}>", children.join(" ")))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn identical_pages_leave_no_content(body in body()) {
        let pages = test_site(&[&body, &body, &body]);
        // Pagelets drop duplicate pages first (Bar-Yossef & Rajagopalan, Figure 4, step 1).
        for method in [Method::Frequency, Method::Rtdm, Method::Msa] {
            let marks = method.detector().detect(&pages).expect("detect");
            for (page, marks) in pages.iter().zip(&marks) {
                prop_assert_eq!(marks.content_text(&page.dom), "", "{}", method.name());
            }
        }
    }

    #[test]
    fn every_method_gives_one_mark_per_element_of_every_page(
        bodies in prop::collection::vec(body(), 2..5)
    ) {
        let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
        let pages = test_site(&bodies);
        for method in Method::ALL {
            let marks = method.detector().detect(&pages).expect("detect");
            prop_assert_eq!(marks.len(), pages.len());
            for (page, marks) in pages.iter().zip(&marks) {
                prop_assert_eq!(marks.flags().len(), page.dom.len());
            }
        }
    }

    #[test]
    fn the_rtdm_template_text_is_on_every_sampled_page(
        bodies in prop::collection::vec(body(), 2..5)
    ) {
        let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
        let pages = test_site(&bodies);
        let strict = Rtdm { min_kept_share: 0.0, ..Rtdm::default() };
        let marks = strict.detect(&pages).expect("detect");
        let templates: Vec<String> =
            pages.iter().zip(&marks).map(|(page, marks)| marks.template_text(&page.dom)).collect();
        // With every page sampled and no page skipped, one template is removed from all pages.
        prop_assert!(templates.windows(2).all(|pair| pair[0] == pair[1]), "{:?}", templates);
    }
}
