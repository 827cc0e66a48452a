//! The uncompressed byte stream of a `.warc.gz`: gzip members decoded one after another, as the
//! WARC standard (ISO 28500, annex D) stores them — usually one member per record.
//!
//! Unlike `flate2::MultiGzDecoder`, a corrupt member does not end the stream: its error is
//! returned once, then decoding resumes at the next gzip header, so the record reader can
//! resynchronize on the following record instead of losing the rest of the file.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The first three bytes of every gzip member: magic number and the deflate method.
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// A buffered reader that counts the bytes its user has consumed and can peek a few bytes ahead
/// across refills (`BufReader` cannot: it refills only when empty).
pub(super) struct Counted<R> {
    inner: R,
    buffer: Vec<u8>,
    position: usize,
    consumed: u64,
}

/// Bytes read from the file at a time.
const BUFFER_BYTES: usize = 64 * 1024;

impl<R: Read> Counted<R> {
    pub(super) fn new(inner: R) -> Self {
        Counted {
            inner,
            buffer: Vec::with_capacity(BUFFER_BYTES),
            position: 0,
            consumed: 0,
        }
    }

    pub(super) fn consumed(&self) -> u64 {
        self.consumed
    }

    /// At least `wanted` unconsumed bytes, fewer only at the end of the input.
    pub(super) fn peek(&mut self, wanted: usize) -> io::Result<&[u8]> {
        while self.buffer.len() - self.position < wanted {
            self.buffer.drain(..self.position);
            self.position = 0;
            let filled = self.buffer.len();
            self.buffer.resize(filled + BUFFER_BYTES.max(wanted), 0);
            let read = loop {
                match self.inner.read(&mut self.buffer[filled..]) {
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    other => break other,
                }
            };
            let read = match read {
                Ok(read) => read,
                Err(error) => {
                    self.buffer.truncate(filled);
                    return Err(error);
                }
            };
            self.buffer.truncate(filled + read);
            if read == 0 {
                break;
            }
        }
        Ok(&self.buffer[self.position..])
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(into.len());
        into[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.peek(1)
    }

    fn consume(&mut self, amount: usize) {
        let amount = amount.min(self.buffer.len() - self.position);
        self.position += amount;
        self.consumed += amount as u64;
    }
}

enum State<R> {
    /// Decoding the member that starts at `start` (compressed offset).
    Member {
        decoder: GzDecoder<Counted<R>>,
        start: u64,
    },
    /// Between members: the next byte is a gzip header, trailing garbage, or the end.
    Between(Counted<R>),
    /// Only while a transition takes ownership of the reader.
    Moving,
}

/// Concatenated gzip members as one uncompressed stream.
pub(super) struct GzipMembers<R> {
    state: State<R>,
}

impl<R: Read> GzipMembers<R> {
    pub(super) fn new(compressed: R) -> Self {
        GzipMembers {
            state: State::Between(Counted::new(compressed)),
        }
    }
}

impl<R: Read> Read for GzipMembers<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        if into.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Moving) {
                State::Between(mut compressed) => {
                    if compressed.fill_buf()?.is_empty() {
                        self.state = State::Between(compressed);
                        return Ok(0);
                    }
                    let start = compressed.consumed();
                    self.state = State::Member {
                        decoder: GzDecoder::new(compressed),
                        start,
                    };
                }
                State::Member { mut decoder, start } => match decoder.read(into) {
                    Ok(0) => self.state = State::Between(decoder.into_inner()),
                    Ok(n) => {
                        self.state = State::Member { decoder, start };
                        return Ok(n);
                    }
                    Err(error) => {
                        let mut compressed = decoder.into_inner();
                        // Step past the bad member's first byte so the search cannot find the
                        // same header again, then skip to the next plausible member.
                        if compressed.consumed() == start && !compressed.fill_buf()?.is_empty() {
                            compressed.consume(1);
                        }
                        skip_to_next_member(&mut compressed)?;
                        self.state = State::Between(compressed);
                        let kind = match error.kind() {
                            io::ErrorKind::UnexpectedEof => io::ErrorKind::UnexpectedEof,
                            _ => io::ErrorKind::InvalidData,
                        };
                        return Err(io::Error::new(
                            kind,
                            format!(
                                "the gzip member at byte {start} of the file is corrupt ({error})"
                            ),
                        ));
                    }
                },
                State::Moving => unreachable!("the state is always restored before returning"),
            }
        }
    }
}

/// Consumes bytes up to (not including) the next gzip member header, or to the end.
fn skip_to_next_member<R: Read>(compressed: &mut Counted<R>) -> io::Result<()> {
    loop {
        let buffer = compressed.peek(GZIP_MAGIC.len())?;
        if buffer.len() < GZIP_MAGIC.len() {
            let rest = buffer.len();
            compressed.consume(rest);
            return Ok(());
        }
        if buffer.starts_with(&GZIP_MAGIC) {
            return Ok(());
        }
        let skip = buffer[1..]
            .iter()
            .position(|&byte| byte == GZIP_MAGIC[0])
            .map_or(buffer.len(), |at| at + 1);
        compressed.consume(skip);
    }
}

/// Whether a stream starts with a gzip header.
pub(super) fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&GZIP_MAGIC[..2])
}
