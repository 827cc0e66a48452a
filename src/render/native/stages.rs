//! A layout its caller can stop. Blitz cannot be interrupted inside a call, so a page is laid
//! out in the stages Blitz's `resolve` runs — parsing (HTML, and the stylesheets the page
//! links, answered during parsing), styling (Stylo), then box construction and layout (Taffy,
//! Parley) — and a stop asked for while one runs ends the work when that stage does: the
//! thread then returns, freeing the page's memory, instead of finishing the layout in the
//! background. How long a stage can take is bounded by the page's size (`ParseLimits`) and by
//! the layout memory budget (`estimate`), which refuses the pages whose stages run longest.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use blitz_dom::BaseDocument;

/// A layout stage; the work stops at the end of the one running when a stop is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutStage {
    /// HTML parsing into Blitz's DOM, and the page's stylesheets.
    Parsing,
    /// Computing every element's style.
    Styling,
    /// Box construction, block/inline/table/flex layout and text shaping.
    LayingOut,
}

impl LayoutStage {
    /// The stage's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            LayoutStage::Parsing => "parsing",
            LayoutStage::Styling => "styling",
            LayoutStage::LayingOut => "box layout",
        }
    }
}

/// A layout that was asked to stop, and where it did.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stopped {
    /// The last stage that ran.
    pub after: LayoutStage,
}

/// The caller's side and the layout thread's side of one page's stop request.
#[derive(Debug, Clone, Default)]
pub(super) struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// Asks the layout to stop at the end of its current stage.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// `Err` when a stop was asked for, after `stage`.
    pub fn check(&self, stage: LayoutStage) -> Result<(), Stopped> {
        if self.0.load(Ordering::Relaxed) {
            Err(Stopped { after: stage })
        } else {
            Ok(())
        }
    }
}

/// Styles the parsed `document` and lays it out, checking `stop` before each stage (parsing,
/// the first, was the caller's).
pub(super) fn resolve_in_stages(
    document: &mut BaseDocument,
    stop: &StopSignal,
) -> Result<(), Stopped> {
    stop.check(LayoutStage::Parsing)?;
    // The stylesheets were answered during parsing; their messages add them to the document.
    document.handle_messages();
    document.resolve_stylist(0.0);
    stop.check(LayoutStage::Styling)?;
    // Nothing is left to restyle, so this is box construction and layout.
    document.resolve(0.0);
    Ok(())
}
