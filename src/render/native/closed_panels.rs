//! Closed tab and disclosure panels laid out where a click would open them. A page shows one tab
//! of a set (a guide's steps for each system, a product's description beside its shipping
//! terms) and keeps the others `hidden` or `display: none` until their tab is clicked; an
//! accordion keeps every answer closed. Their text is the page's, one click away, as a closed
//! `<details>`' is (`closed_details`): issue 27 asks hidden tab panels of the main region to be
//! content candidates, and a panel left without boxes could never be.
//!
//! Only panels that say what they are (`role="tabpanel"` or `role="region"`) and are hidden by
//! their own markup (the `hidden` attribute, or `display: none` in their `style`) are laid out:
//! a controlled element without a role is as often a menu or a dialog. Like a closed details'
//! content, a panel is laid out at zero height ([`CLOSED_PANEL_CSS`]): its content has boxes at
//! full width where the panel stands, and the page continues below as it did, so nothing else
//! on the page moves.

use crate::page::Dom;

/// The attribute that marks a closed panel in the copy to lay out; no author stylesheet styles it.
const CLOSED_PANEL: &str = "pagelevel-closed-panel";

/// The user-agent rule that lays out a closed panel at zero height. `!important` in the user
/// agent's sheet wins over every author rule, `!important` ones included.
pub(crate) const CLOSED_PANEL_CSS: &str = "[pagelevel-closed-panel] { display: flow-root \
    !important; height: 0 !important; min-height: 0 !important; max-height: none !important; \
    margin: 0 !important; padding: 0 !important; border: 0 !important; overflow: visible \
    !important; visibility: visible !important; }\n";

/// Marks every closed panel of `dom` (the copy to lay out) for [`CLOSED_PANEL_CSS`], without the
/// `hidden` attribute and the inline `display: none` that closed it.
pub(crate) fn lay_out_closed_panels(dom: &mut Dom) {
    for element in &mut dom.elements {
        let is_panel = element.attributes.iter().any(|(name, value)| {
            name == "role"
                && ["tabpanel", "region"]
                    .iter()
                    .any(|role| value.trim().eq_ignore_ascii_case(role))
        });
        if !is_panel {
            continue;
        }
        let hidden = element.attributes.iter().any(|(name, _)| name == "hidden");
        let style_hides = element
            .attributes
            .iter()
            .any(|(name, value)| name == "style" && hides_by_style(value));
        if !(hidden || style_hides) {
            continue;
        }
        element.attributes.retain(|(name, value)| {
            name != "hidden" && !(name == "style" && hides_by_style(value))
        });
        element
            .attributes
            .push((CLOSED_PANEL.to_string(), String::new()));
    }
}

/// Whether an inline style sets `display: none`.
fn hides_by_style(style: &str) -> bool {
    style.split(';').any(|declaration| {
        let mut parts = declaration.splitn(2, ':');
        let property = parts.next().unwrap_or("").trim();
        let value = parts.next().unwrap_or("").trim();
        property.eq_ignore_ascii_case("display")
            && value
                .trim_end_matches("!important")
                .trim()
                .eq_ignore_ascii_case("none")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{Page, ParseLimits};

    #[test]
    fn a_closed_tab_or_accordion_panel_is_marked_and_opened_but_a_hidden_menu_is_not() {
        let html = r#"<div role="tabpanel" hidden id="linux"><p>Install it with apt.</p></div>
            <div role="region" style="color: red; display : none !important"><p>Answer.</p></div>
            <div role="region"><p>An open panel.</p></div>
            <ul role="menu" hidden><li>Settings</li></ul>"#;
        let mut page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
        lay_out_closed_panels(&mut page.dom);
        let marked: Vec<Vec<(String, String)>> = page
            .dom
            .elements
            .iter()
            .filter(|element| element.attribute(CLOSED_PANEL).is_some())
            .map(|element| element.attributes.clone())
            .collect();
        assert_eq!(marked.len(), 2, "{marked:?}");
        for attributes in &marked {
            assert!(
                !attributes
                    .iter()
                    .any(|(name, value)| name == "hidden"
                        || (name == "style" && hides_by_style(value))),
                "{attributes:?}"
            );
        }
        assert!(hides_by_style("display:none"));
        assert!(!hides_by_style("display: block; visibility: hidden"));
    }
}
