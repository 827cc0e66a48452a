//! Decoding and parsing HTML into an arena DOM.
