//! Exact regularized tree isotonic smoothing.
