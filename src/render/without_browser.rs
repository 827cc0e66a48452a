//! What stands in for the DevTools driver (`browser/`) in a pagelevel built without the
//! `chromium` feature: no session can exist, so none is ever launched and no browser needs
//! stopping. [`super::Renderer::new`] refuses before it looks for Chromium, so the message names
//! the missing feature, not a missing browser.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use super::RenderError;
use crate::layout::{Layout, Viewport};

/// A browser session that cannot exist: this build has no DevTools driver.
pub struct BrowserSession {
    never: Infallible,
}

impl BrowserSession {
    /// Always refuses: there is no driver to launch a browser with.
    pub fn launch(
        _chromium: &Path,
        _proxy: SocketAddr,
        _viewport: Viewport,
        _call_timeout: Duration,
    ) -> Result<BrowserSession, RenderError> {
        Err(RenderError::NotBuiltIn)
    }

    pub fn lay_out(
        &self,
        _url: &str,
        _element_count: usize,
        _viewport: Viewport,
        _load_budget: Duration,
        _page_scripts: bool,
    ) -> Result<Layout, RenderError> {
        match self.never {}
    }

    pub fn is_lost(&self) -> bool {
        match self.never {}
    }

    pub fn screenshot(&self, _width: f64, _height: f64) -> Result<Vec<u8>, RenderError> {
        match self.never {}
    }
}

/// No browser was ever started, so there is none to stop.
pub fn stop_all_browsers() -> usize {
    0
}
