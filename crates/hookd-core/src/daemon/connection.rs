//! Newline-delimited framing over one socket connection, with the size limit
//! checked before anything is parsed.
//!
//! A line over the limit is skipped up to its newline and reported as
//! [`Frame::TooLong`], so one bad line never costs the lines after it.
//! [`Connection::read_frame`] keeps all state in the struct, so it is safe to
//! cancel in a `select!` and call again.
//!
//! Memory follows what a connection sends, not how many are open: bytes are
//! read straight into the line buffer, which starts empty, reserves
//! `MIN_READ` (4 KiB) for a read and grows with the line up to `MAX_READ` (64 KiB) a
//! read; a buffer grown past `KEPT_CAPACITY` is handed over with its line
//! or shrunk after it. A thousand idle connections hold a few KiB each, not
//! a 64 KiB buffer apiece for as long as they stay open.

use tokio::io::{AsyncRead, AsyncReadExt};

/// Space reserved for the first read, and the least for any read: an
/// envelope line is usually a few KiB.
const MIN_READ: usize = 4 * 1024;

/// Most reserved for one read; a longer line takes several.
const MAX_READ: usize = 64 * 1024;

/// Capacity a connection keeps between lines; more is released once the
/// line that needed it is out.
const KEPT_CAPACITY: usize = 64 * 1024;

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
        }
    }

    /// Bytes currently held for this connection (its buffer's capacity).
    pub fn buffered_capacity(&self) -> usize {
        self.buffer.capacity()
    }

    /// Reads whatever the peer has sent next (at least one byte, or end of
    /// stream: `Ok(0)`) into the buffer. Cancel-safe, like
    /// [`Self::read_frame`]; the server awaits it alone to time the first byte.
    pub async fn fill(&mut self) -> std::io::Result<usize> {
        let want = if self.skipping.is_some() {
            MAX_READ
        } else {
            self.buffer.len().clamp(MIN_READ, MAX_READ)
        };
        self.buffer.reserve(want);
        let start = self.buffer.len();
        let read = self.reader.read_buf(&mut self.buffer).await?;
        if read > 0 {
            self.absorb(start);
        }
        Ok(read)
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
            if self.fill().await? == 0 {
                return Ok(self.finish());
            }
        }
    }

    /// Takes in the bytes just read into `buffer[start..]`: while an
    /// over-long line is skipped they are dropped up to its newline.
    fn absorb(&mut self, start: usize) {
        let Some(skipped) = self.skipping.as_mut() else {
            return;
        };
        match self.buffer[start..].iter().position(|b| *b == b'\n') {
            // The over-long line ends here; keep what follows.
            Some(pos) => {
                *skipped += pos;
                self.buffer.drain(..start + pos);
            }
            None => {
                *skipped += self.buffer.len() - start;
                self.buffer.truncate(start);
            }
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
            let mut line = self.take_line(end);
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
            self.buffer = Vec::new();
            self.scanned = 0;
        }
        None
    }

    /// `buffer[..=end]` as its own vector, leaving the rest. The usual case,
    /// a line that is all the buffer holds, hands the buffer itself over (no
    /// copy; the connection starts again from nothing); otherwise a buffer
    /// grown past [`KEPT_CAPACITY`] is shrunk to what it still holds.
    fn take_line(&mut self, end: usize) -> Vec<u8> {
        if end + 1 == self.buffer.len() {
            return std::mem::take(&mut self.buffer);
        }
        let line = self.buffer.drain(..=end).collect();
        if self.buffer.capacity() > KEPT_CAPACITY {
            self.buffer.shrink_to(self.buffer.len().max(MIN_READ));
        }
        line
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

    #[tokio::test]
    async fn buffers_start_empty_and_large_ones_are_released_after_their_line() {
        let (mut client, server) = tokio::io::duplex(1 << 20);
        let mut conn = Connection::new(server, 1 << 20);
        assert_eq!(
            conn.buffered_capacity(),
            0,
            "nothing held before a byte arrives"
        );

        use tokio::io::AsyncWriteExt as _;
        let mut big = vec![b'b'; 300_000];
        big.extend_from_slice(b"\nsmall\n");
        client.write_all(&big).await.unwrap();
        let Some(Frame::Line(line)) = conn.read_frame().await.unwrap() else {
            panic!("a line");
        };
        assert_eq!(line.len(), 300_000);
        assert!(
            conn.buffered_capacity() <= KEPT_CAPACITY,
            "kept {} bytes after a 300 KB line",
            conn.buffered_capacity()
        );
        assert_eq!(
            conn.read_frame().await.unwrap(),
            Some(Frame::Line(b"small".to_vec()))
        );
        // A line that was all the buffer held leaves nothing behind.
        assert_eq!(conn.buffered_capacity(), 0);

        // Skipping an over-long line holds one read's worth, not the line.
        let mut conn = Connection::new(&b""[..], 10);
        let mut input = vec![b'x'; 1_000_000];
        input.extend_from_slice(b"\nok\n");
        conn.reader = &input[..];
        assert_eq!(
            conn.read_frame().await.unwrap(),
            Some(Frame::TooLong(1_000_000))
        );
        assert!(conn.buffered_capacity() <= 2 * MAX_READ);
        assert_eq!(
            conn.read_frame().await.unwrap(),
            Some(Frame::Line(b"ok".to_vec()))
        );
    }
}
