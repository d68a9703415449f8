//! sled's log file read apart from sled (the on-disk format of sled 0.34, pinned in
//! `Cargo.toml`): to find damage before sled opens a database, and to mend a copy of a
//! damaged one so that sled reads past the damage.
//!
//! sled keeps everything in one file, `db`, cut into segments (512 KiB unless its `conf` says
//! otherwise). A segment starts with a 20-byte header (its log sequence number and a
//! checksum) followed by messages, each a header (checksum, kind, length, segment number, page
//! id) and a body; the checksum covers both. On open sled replays the messages written since
//! its last page-table snapshot (`snap.<lsn>`, the lsn in hexadecimal), and it takes the
//! first message whose checksum fails for the end of a write torn by a crash: it stops there,
//! **overwrites the rest of that segment and zeroes every later one**. A flipped byte in that
//! part of the file would so lose every later record, in place, before anything could tell.
//! So [`damage`] looks first, read-only: a message that fails followed by one that reads is
//! not a torn end but damage, and the database is then salvaged from a copy, never opened
//! where it is.
//!
//! [`mend`] rewrites, in such a copy, each damaged stretch as one message of the kind sled
//! skips ("canceled"), with a checksum that matches, and ends a segment whose end is damaged
//! with the mark sled reads as the end of a segment ("cap"), and marks free, at the end of
//! the log, any page left with no version at all (sled panics on those). sled then replays the
//! whole log;
//! the records of the damaged stretches are missing (reading them is an error, a stale copy
//! of them may show), and the store's own checks of each session sort out what is whole.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// sled's default segment size, used when the `conf` file does not say.
const DEFAULT_SEGMENT: u64 = 512 * 1024;
const SEG_HEADER_LEN: usize = 20;
/// sled writes no message closer than this to a segment's end.
const MAX_MSG_HEADER_LEN: usize = 32;
const KIND_CANCELED: u8 = 1;
const KIND_CAP: u8 = 2;
const KIND_FREE: u8 = 4;
const KIND_LINK: u8 = 10;
const KIND_LAST: u8 = 11;

/// A stretch of a segment that does not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stretch {
    /// Where it starts in the file.
    at: u64,
    /// Where the next message that reads starts; `None` when none follows in the segment.
    next: Option<u64>,
}

/// One segment as read.
struct Segment {
    offset: u64,
    lsn: i64,
    /// Messages that read.
    valid: usize,
    broken: Vec<Stretch>,
    /// The kind and page id of each message that reads.
    pages: Vec<(u8, u64)>,
    /// Where the messages that read end (in the file).
    tip: u64,
}

/// The most of sled's `conf` file read: it holds a few short lines, and a damaged or crafted
/// one must not fill the memory.
const MAX_CONF_BYTES: u64 = 4096;

/// How many bytes of would-be messages the search for the next readable one may checksum in a
/// segment, in segment sizes: a crafted segment of headers that each claim the rest of it
/// would otherwise cost its size squared.
const RESYNC_SEGMENTS: usize = 8;

/// The segment size of the database at `dir`, from sled's `conf` file.
fn segment_size(dir: &Path) -> u64 {
    let mut conf = String::new();
    if let Ok(file) = File::open(dir.join("conf")) {
        let _ = file.take(MAX_CONF_BYTES).read_to_string(&mut conf);
    }
    conf.lines()
        .filter_map(|line| line.strip_prefix("segment_size:"))
        .filter_map(|value| value.trim().parse::<u64>().ok())
        .find(|size| size.is_power_of_two() && (256..=1 << 24).contains(size))
        .unwrap_or(DEFAULT_SEGMENT)
}

/// The stable lsn of the newest page-table snapshot, from its file's name.
fn snapshot_lsn(dir: &Path) -> Option<i64> {
    fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let hex = name.strip_prefix("snap.")?;
            (hex.len() == 16).then_some(())?;
            i64::from_str_radix(hex, 16).ok()
        })
        .max()
}

/// Every segment of the log file whose header reads, in the file's order.
fn segments(dir: &Path) -> io::Result<Vec<Segment>> {
    let size = segment_size(dir);
    let mut file = match File::open(dir.join("db")) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    let mut found = Vec::new();
    let mut buf = Vec::new();
    let mut offset = 0;
    while offset < len {
        buf.clear();
        (&mut file).take(size).read_to_end(&mut buf)?;
        if let Some(segment) = read_segment(&buf, offset, size) {
            found.push(segment);
        }
        offset += size;
        file.seek(SeekFrom::Start(offset))?;
    }
    Ok(found)
}

/// A segment's messages: those that read, and the stretches that do not.
fn read_segment(buf: &[u8], offset: u64, size: u64) -> Option<Segment> {
    let header = buf.get(..SEG_HEADER_LEN)?;
    let stored = u32::from_le_bytes(header[..4].try_into().ok()?) ^ 0xFFFF_FFFF;
    if crc32(&header[4..]) != stored {
        // A free segment (sled spoils the header of those) or a damaged header: sled skips it
        // the same way.
        return None;
    }
    let lsn = i64::from_le_bytes(header[4..12].try_into().ok()?) ^ 0x7FFF_FFFF_FFFF_FFFF;
    let size_i = i64::try_from(size).ok()?;
    if lsn < 0 || lsn % size_i != 0 {
        return None;
    }
    let number = u64::try_from(lsn / size_i).ok()?;
    let end = usize::try_from(size).ok()?.min(buf.len());
    let last_start = usize::try_from(size).ok()? - MAX_MSG_HEADER_LEN;
    let mut segment = Segment {
        offset,
        lsn,
        valid: 0,
        broken: Vec::new(),
        pages: Vec::new(),
        tip: offset + SEG_HEADER_LEN as u64,
    };
    let mut pos = SEG_HEADER_LEN;
    while pos <= last_start && pos < end {
        match message(&buf[..end], pos, number, size) {
            Some((kind, total, pid)) => {
                segment.valid += 1;
                segment.pages.push((kind, pid));
                if kind == KIND_CAP {
                    break;
                }
                pos += total;
                segment.tip = offset + pos as u64;
            }
            None => {
                let next = next_message(&buf[..end], pos, last_start, number, size);
                segment.broken.push(Stretch {
                    at: offset + pos as u64,
                    next: next.map(|q| offset + q as u64),
                });
                match next {
                    Some(q) => pos = q,
                    None => break,
                }
            }
        }
    }
    Some(segment)
}

/// Where the first message after `pos` that reads starts, if one does before `last_start`
/// and within the checksum budget ([`RESYNC_SEGMENTS`]).
fn next_message(
    buf: &[u8],
    pos: usize,
    last_start: usize,
    number: u64,
    size: u64,
) -> Option<usize> {
    let mut budget = RESYNC_SEGMENTS.saturating_mul(size as usize);
    for q in pos + 1..=last_start.min(buf.len().saturating_sub(1)) {
        let Some(candidate) = header(buf, q, number, size) else {
            continue;
        };
        budget = budget.checked_sub(candidate.len)?;
        if candidate.reads(buf, q) {
            return Some(q);
        }
    }
    None
}

/// What a message's header claims, before its checksum is checked.
struct Header {
    stored: u32,
    kind: u8,
    header_len: usize,
    len: usize,
    pid: u64,
}

impl Header {
    /// Whether the checksum of the message at `pos` matches.
    fn reads(&self, buf: &[u8], pos: usize) -> bool {
        let body = &buf[pos + self.header_len..pos + self.header_len + self.len];
        let crc = crc32_of(&[body, &buf[pos + 4..pos + self.header_len]]) ^ 0xFFFF_FFFF;
        crc == self.stored
    }
}

/// The message at `pos` of a segment, as sled checks it: (kind, length with its header, page
/// id), or
/// `None` when it does not read (a bad checksum, an impossible length, another segment's).
fn message(buf: &[u8], pos: usize, number: u64, size: u64) -> Option<(u8, usize, u64)> {
    let claimed = header(buf, pos, number, size)?;
    claimed
        .reads(buf, pos)
        .then_some((claimed.kind, claimed.header_len + claimed.len, claimed.pid))
}

/// The header at `pos`, if it could start a message of segment `number` (a known kind, this
/// segment's number, a length that fits).
fn header(buf: &[u8], pos: usize, number: u64, size: u64) -> Option<Header> {
    let mut cursor = buf.get(pos..)?;
    let stored = u32::from_le_bytes(cursor.get(..4)?.try_into().ok()?);
    cursor = &cursor[4..];
    let kind = *cursor.first()?;
    cursor = &cursor[1..];
    let len = varint(&mut cursor)?;
    let seg = varint(&mut cursor)?;
    let pid = varint(&mut cursor)?;
    if kind == 0 || kind > KIND_LAST || seg != number {
        return None;
    }
    let header_len = buf.len() - pos - cursor.len();
    let room = (size as usize).checked_sub(pos % size as usize + header_len)?;
    let len = usize::try_from(len).ok().filter(|&l| l <= room)?;
    cursor.get(..len)?;
    Some(Header {
        stored,
        kind,
        header_len,
        len,
        pid,
    })
}

/// sled's variable-length integer.
fn varint(buf: &mut &[u8]) -> Option<u64> {
    let first = *buf.first()?;
    let (value, used) = match first {
        0..=240 => (u64::from(first), 1),
        241..=248 => (
            240 + 256 * (u64::from(first) - 241) + u64::from(*buf.get(1)?),
            2,
        ),
        249 => (
            2288 + 256 * u64::from(*buf.get(1)?) + u64::from(*buf.get(2)?),
            3,
        ),
        other => {
            let n = usize::from(other) - 247;
            let mut bytes = [0; 8];
            bytes[..n].copy_from_slice(buf.get(1..=n)?);
            (u64::from_le_bytes(bytes), n + 1)
        }
    };
    *buf = buf.get(used..)?;
    Some(value)
}

fn varint_bytes(value: u64) -> Vec<u8> {
    match value {
        0..=240 => vec![value as u8],
        241..=2287 => vec![
            ((value - 240) / 256 + 241) as u8,
            ((value - 240) % 256) as u8,
        ],
        2288..=67823 => vec![
            249,
            ((value - 2288) / 256) as u8,
            ((value - 2288) % 256) as u8,
        ],
        _ => {
            let n = (8 - value.leading_zeros() as usize / 8).max(3);
            let mut bytes = vec![(247 + n) as u8];
            bytes.extend_from_slice(&value.to_le_bytes()[..n]);
            bytes
        }
    }
}

/// Damage that sled would take for a torn write (see the module's documentation), in the
/// part of the log it replays on open; `None` when there is none. Reads only.
pub(crate) fn damage(dir: &Path) -> io::Result<Option<String>> {
    let size = i64::try_from(segment_size(dir)).unwrap_or(i64::MAX);
    let from = snapshot_lsn(dir).map_or(0, |lsn| lsn / size * size);
    let mut replayed: Vec<Segment> = segments(dir)?
        .into_iter()
        .filter(|s| s.lsn >= from)
        .collect();
    replayed.sort_by_key(|s| s.lsn);
    for (i, segment) in replayed.iter().enumerate() {
        for stretch in &segment.broken {
            let more_after =
                stretch.next.is_some() || replayed[i + 1..].iter().any(|s| s.valid > 0);
            if more_after {
                return Ok(Some(format!(
                    "a record at byte {} of its log file does not match its checksum, and records follow it",
                    stretch.at
                )));
            }
        }
    }
    Ok(None)
}

/// Mends a copy of a damaged database in `dir` (see the module's documentation); returns
/// how many damaged stretches were rewritten.
pub(crate) fn mend(dir: &Path) -> io::Result<usize> {
    let size = segment_size(dir);
    let mut found = segments(dir)?;
    found.sort_by_key(|s| s.lsn);
    let last = found.last().map(|s| s.offset);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.join("db"))?;
    let mut mended = 0;
    for segment in &found {
        let number = u64::try_from(segment.lsn).unwrap_or(0) / size;
        for stretch in &segment.broken {
            let bytes = match stretch.next {
                Some(next) => canceled(number, next - stretch.at, 0),
                // The end of the newest segment is where sled goes on writing: left as it is.
                None if Some(segment.offset) == last => continue,
                None => Some(message_bytes(KIND_CAP, number, 0, 0)),
            };
            let Some(bytes) = bytes else { continue };
            file.seek(SeekFrom::Start(stretch.at))?;
            file.write_all(&bytes)?;
            mended += 1;
        }
    }
    // A page whose every full version was in a damaged stretch would be left with no state
    // at all, which sled cannot write into its next page-table snapshot (it panics): such
    // pages are marked free at the end of the log, where sled goes on writing.
    if mended > 0 {
        if let Some(newest) = found.last() {
            let number = u64::try_from(newest.lsn).unwrap_or(0) / size;
            let room = newest.offset + size - MAX_MSG_HEADER_LEN as u64;
            let mut at = newest.tip;
            for pid in pages_without_state(&found) {
                let bytes = message_bytes(KIND_FREE, number, 0, pid);
                if at + bytes.len() as u64 > room {
                    break;
                }
                file.seek(SeekFrom::Start(at))?;
                file.write_all(&bytes)?;
                at += bytes.len() as u64;
            }
        }
    }
    file.sync_all()?;
    Ok(mended)
}

/// The pages that messages name but that no message gives a full version of (or frees).
fn pages_without_state(found: &[Segment]) -> Vec<u64> {
    let mut stated = std::collections::BTreeSet::new();
    let mut highest = None;
    for &(kind, pid) in found.iter().flat_map(|s| &s.pages) {
        if (KIND_FREE..=KIND_LAST).contains(&kind) {
            highest = highest.max(Some(pid));
        }
        if (KIND_FREE..KIND_LINK).contains(&kind) {
            stated.insert(pid);
        }
    }
    match highest {
        // More pages than a database of saved games holds: something else is wrong.
        Some(highest) if highest < 1 << 24 => {
            (0..=highest).filter(|p| !stated.contains(p)).collect()
        }
        _ => Vec::new(),
    }
}

/// A message sled skips, exactly `total` bytes long.
fn canceled(number: u64, total: u64, pid: u64) -> Option<Vec<u8>> {
    let fixed = 4 + 1 + varint_bytes(number).len() as u64 + varint_bytes(pid).len() as u64;
    (1..=9).find_map(|n| {
        let len = total.checked_sub(fixed + n)?;
        (varint_bytes(len).len() as u64 == n)
            .then(|| message_bytes(KIND_CANCELED, number, len, pid))
    })
}

/// A message of `kind` with a body of `len` zero bytes, its checksum right.
fn message_bytes(kind: u8, number: u64, len: u64, pid: u64) -> Vec<u8> {
    let mut header = vec![0; 4];
    header.push(kind);
    header.extend(varint_bytes(len));
    header.extend(varint_bytes(number));
    header.extend(varint_bytes(pid));
    let body = vec![0; usize::try_from(len).unwrap_or(0)];
    let crc = crc32_of(&[&body, &header[4..]]) ^ 0xFFFF_FFFF;
    header[..4].copy_from_slice(&crc.to_le_bytes());
    header.extend(body);
    header
}

fn crc32(bytes: &[u8]) -> u32 {
    crc32_of(&[bytes])
}

/// CRC-32 (IEEE), as sled computes it.
fn crc32_of(parts: &[&[u8]]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = 0xFFFF_FFFFu32;
    for part in parts {
        for &b in *part {
            crc = TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
        }
    }
    crc ^ 0xFFFF_FFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_back_as_written() {
        for value in [
            0,
            240,
            241,
            2287,
            2288,
            67823,
            67824,
            0xFF_FFFF,
            1 << 40,
            u64::MAX,
        ] {
            let bytes = varint_bytes(value);
            assert_eq!(varint(&mut bytes.as_slice()), Some(value), "{value}");
        }
    }

    #[test]
    fn a_mended_stretch_reads_as_one_message_of_its_exact_length() {
        for total in [8, 9, 300, 5000, 70_000] {
            let bytes = canceled(3, total, 0).expect("a message fits");
            assert_eq!(bytes.len() as u64, total);
            let mut segment = vec![0; 4 * 70_000];
            segment[100..100 + bytes.len()].copy_from_slice(&bytes);
            let read = message(&segment, 100, 3, 4 * 70_000);
            assert_eq!(read, Some((KIND_CANCELED, total as usize, 0)));
        }
    }
}
