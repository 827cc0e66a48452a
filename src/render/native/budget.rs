//! What one page's native layout may take — wall time and memory — and what happens past it.
//!
//! Memory is decided before layout, from the estimate (`estimate`): a page over the budget is
//! laid out without its stylesheets when that brings it under (its template is still found:
//! table, list and block structure carry most of it), and refused otherwise. Falling back to
//! document-order boxes instead was measured and rejected: with the native model, template
//! text F1 on the development sets fell to 0.10–0.37 and `content_text` kept nearly the whole
//! page (precision 0.24–0.56), so such a page would look scored while its template was not
//! found. Time is watched during layout: past the budget the layout is asked to stop and is
//! waited for, which it does at the end of its current stage (`stages`).

use std::fmt;
use std::sync::mpsc;
use std::time::Duration;

use super::estimate::{DEFAULT_LAYOUT_MEMORY_MIB, LayoutCost, MAX_STYLE_RULES};
use super::stages::StopSignal;
use crate::layout::Layout;

/// Longest wait for one page's layout by default, as the Chromium renderer's call timeout. The
/// largest page `ParseLimits` accepts (300,000 elements) took 4.5 s; only an engine bug takes
/// this.
pub const NATIVE_LAYOUT_BUDGET: Duration = Duration::from_secs(15);

const MIB: u64 = 1024 * 1024;

/// How much one page's native layout may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeBudget {
    /// Longest wall time; past it the layout stops at the end of its stage and the page fails.
    pub time: Duration,
    /// Largest estimated peak memory of the layout, in bytes.
    pub memory_bytes: u64,
}

impl Default for NativeBudget {
    fn default() -> Self {
        NativeBudget {
            time: NATIVE_LAYOUT_BUDGET,
            memory_bytes: DEFAULT_LAYOUT_MEMORY_MIB * MIB,
        }
    }
}

impl NativeBudget {
    /// The memory budget in whole MiB, for messages.
    pub fn memory_mib(&self) -> u64 {
        self.memory_bytes / MIB
    }
}

/// A natively laid-out page.
#[derive(Debug, Clone)]
pub struct NativeLaidOut {
    /// The boxes.
    pub layout: Layout,
    /// Set when the page was laid out without its stylesheets to stay within the budget.
    pub without_stylesheets: Option<WithoutStylesheets>,
}

/// Why a page was laid out without its stylesheets; its display is the warning to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WithoutStylesheets {
    /// The page's cost with its stylesheets.
    pub cost: LayoutCost,
    /// The memory budget it was laid out under, bytes.
    pub budget_bytes: u64,
}

impl fmt::Display for WithoutStylesheets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "laid out without its stylesheets (<style> and linked CSS; inline styles kept), so \
             its boxes are those of an unstyled page: "
        )?;
        if self.cost.memory_bytes() > self.budget_bytes {
            write!(
                f,
                "with them, laying it out would take about {} MiB, over the layout memory budget \
                 of {} MiB (raise --max-layout-memory to apply them)",
                self.cost.memory_bytes() / MIB,
                self.budget_bytes / MIB
            )
        } else {
            write!(
                f,
                "they hold {} style rules, more than the {MAX_STYLE_RULES} that style in bounded \
                 time",
                self.cost.style_rules
            )
        }
    }
}

/// A layout thread's answer, and whether it came within the time budget.
pub(super) enum Answer<T> {
    /// Within the budget.
    InTime(T),
    /// After the layout was asked to stop: at the end of the stage it was in.
    Late(T),
    /// None: the layout thread ended without answering.
    Lost,
}

/// Waits up to `budget` for a layout's answer. Past it, asks the layout to stop and waits for
/// the answer it then gives at the end of its current stage.
pub(super) fn answer_within<T>(
    answers: &mpsc::Receiver<T>,
    budget: Duration,
    stop: &StopSignal,
) -> Answer<T> {
    match answers.recv_timeout(budget) {
        Ok(answer) => Answer::InTime(answer),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            stop.request();
            answers.recv().map_or(Answer::Lost, Answer::Late)
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Answer::Lost,
    }
}
