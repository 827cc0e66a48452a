//! Rendering pages in headless Chromium.
