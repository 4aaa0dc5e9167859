//! Newline-delimited framing over one socket connection, with the size limit
//! checked before anything is parsed.
//!
//! A line over the limit is skipped up to its newline and reported as
//! [`Frame::TooLong`], so one bad line never costs the lines after it.
//! [`Connection::read_frame`] keeps all state in the struct, so it is safe to
//! cancel in a `select!` and call again.

use tokio::io::{AsyncRead, AsyncReadExt};

/// How much is read from the socket at a time.
const READ_CHUNK: usize = 64 * 1024;

/// One unit read from a connection.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A complete line without its newline (or the last bytes before EOF).
    Line(Vec<u8>),
    /// A line longer than the limit was skipped; its length in bytes.
    TooLong(usize),
    /// Bytes after the last newline when the stream ended: either a complete
    /// line from an emitter that did not end it with `\n`, or the start of a
    /// line whose writer gave up. The caller tells them apart by parsing.
    Unterminated(Vec<u8>),
}

/// A framed reader over one connection.
pub struct Connection<R> {
    reader: R,
    max_line: usize,
    buffer: Vec<u8>,
    /// Bytes of `buffer` already searched for a newline.
    scanned: usize,
    /// Length so far of an over-long line being skipped.
    skipping: Option<usize>,
    chunk: Box<[u8]>,
}

impl<R: AsyncRead + Unpin> Connection<R> {
    /// Wraps a reader; lines longer than `max_line` bytes are skipped.
    pub fn new(reader: R, max_line: usize) -> Self {
        Self {
            reader,
            max_line,
            buffer: Vec::new(),
            scanned: 0,
            skipping: None,
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
        }
    }

    /// True when part of a line has been read but not its end.
    pub fn has_partial_line(&self) -> bool {
        !self.buffer.is_empty() || self.skipping.is_some()
    }

    /// The next frame, or `None` at a clean end of stream.
    pub async fn read_frame(&mut self) -> std::io::Result<Option<Frame>> {
        loop {
            if let Some(frame) = self.next_buffered_frame() {
                return Ok(Some(frame));
            }
            let read = self.reader.read(&mut self.chunk).await?;
            if read == 0 {
                return Ok(self.finish());
            }
            self.absorb(read);
        }
    }

    fn absorb(&mut self, read: usize) {
        let data = &self.chunk[..read];
        match self.skipping.as_mut() {
            Some(skipped) => match data.iter().position(|b| *b == b'\n') {
                // The over-long line ends here; keep what follows.
                Some(pos) => {
                    *skipped += pos;
                    self.buffer.extend_from_slice(&data[pos..]);
                }
                None => *skipped += read,
            },
            None => self.buffer.extend_from_slice(data),
        }
    }

    fn next_buffered_frame(&mut self) -> Option<Frame> {
        if let Some(skipped) = self.skipping {
            // absorb() leaves the terminating newline at the front once found.
            if self.buffer.first() == Some(&b'\n') {
                self.buffer.drain(..1);
                self.scanned = 0;
                self.skipping = None;
                return Some(Frame::TooLong(skipped));
            }
            return None;
        }
        if let Some(offset) = self.buffer[self.scanned..].iter().position(|b| *b == b'\n') {
            let end = self.scanned + offset;
            let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
            line.pop();
            self.scanned = 0;
            if line.len() > self.max_line {
                return Some(Frame::TooLong(line.len()));
            }
            return Some(Frame::Line(line));
        }
        self.scanned = self.buffer.len();
        if self.buffer.len() > self.max_line {
            self.skipping = Some(self.buffer.len());
            self.buffer.clear();
            self.scanned = 0;
        }
        None
    }

    fn finish(&mut self) -> Option<Frame> {
        if let Some(skipped) = self.skipping.take() {
            return Some(Frame::TooLong(skipped));
        }
        if self.buffer.is_empty() {
            return None;
        }
        self.scanned = 0;
        Some(Frame::Unterminated(std::mem::take(&mut self.buffer)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8], max: usize) -> Vec<Frame> {
        let mut conn = Connection::new(input, max);
        let mut out = Vec::new();
        while let Some(frame) = conn.read_frame().await.unwrap() {
            out.push(frame);
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_and_keeps_a_final_unterminated_one() {
        assert_eq!(
            frames(b"a\nbb\n\nccc", 10).await,
            vec![
                Frame::Line(b"a".to_vec()),
                Frame::Line(b"bb".to_vec()),
                Frame::Line(Vec::new()),
                Frame::Unterminated(b"ccc".to_vec()),
            ]
        );
    }

    #[tokio::test]
    async fn over_long_lines_are_skipped_and_the_next_line_survives() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\nok\n");
        // A short unterminated last line is still a line.
        input.extend(vec![b'y'; 20]);
        assert_eq!(
            frames(&input, 100).await,
            vec![
                Frame::TooLong(200_000),
                Frame::Line(b"ok".to_vec()),
                Frame::Unterminated(vec![b'y'; 20])
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_accepted() {
        let mut input = vec![b'z'; 100];
        input.push(b'\n');
        assert_eq!(
            frames(&input, 100).await,
            vec![Frame::Line(vec![b'z'; 100])]
        );
        input.insert(0, b'z');
        assert_eq!(frames(&input, 100).await, vec![Frame::TooLong(101)]);
    }
}
