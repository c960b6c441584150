//! The result file (`.gsr`): what a solve found and the proof of it.
//!
//! # Format, version 4
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `GOSOLVE` followed by 0x1A |
//! | 2 | format version, little-endian (this reader: 1 to 4) |
//! | 2 | reserved, zero |
//! | 8 | payload length in bytes, little-endian |
//! | 4 | CRC-32 (IEEE) of the payload, little-endian |
//! | n | payload: a [`ResultFile`] in bincode 2 (standard configuration, serde) |
//!
//! Every point set, move and colour in the payload is plain data: a move is
//! a code (0 = pass, p + 1 = point p), a colouring a list of cells (0 empty,
//! 1 black, 2 white, 3 black border stone, 4 white border stone). The
//! proofs are the strategy streams of [`crate::search::proof`]. bincode is used only
//! in this module, so the encoding can change with the version number.
//!
//! Version 2 differs from 1 only in what a link in a strategy may reuse
//! (see [`crate::search::proof`]): a subtree that produced at most [`MADE_LIMIT`]
//! colourings is judged by their exact set. Every version-1 link meets the
//! version-2 rule (barring a collision of 64-bit hashes, which would only
//! make the checker refuse a link), so both are read.
//!
//! Version 3 differs from 2 only in that a link may join states whose
//! prisoners differ where the rules neither score nor spend them, or whose
//! points played differ outside `koh`. Every version-2 link meets the
//! version-3 rule, so all three are read.
//!
//! Version 4 adds each first-move class's claim ([`Claim`]): its value
//! exact, or only a bound that a strategy of one side proves. Files of
//! versions 1 to 3 read with every class exact.
//!
//! # Compression
//!
//! A file whose plain bytes exceed [`COMPRESS_ABOVE`] is written as one
//! zstd frame (with its size and content checksum) of those bytes, so
//! `zstd -dc FILE > plain.gsr` gives the plain file back. Readers tell the
//! two apart by the first four bytes ([`ZSTD_MAGIC`] or [`MAGIC`]), so files written before
//! compression, and small files, read as they always did. Proof streams
//! are already dense: zstd at level 9 halves them (4x4 6.7 → 2.9 MB,
//! 3x6 60.5 → 27.3 MB, about a second per 60 MB), small files would gain
//! a few bytes and lose being readable as they are.
//!
//! Files are written to a temporary file in the same folder and renamed into
//! place, so a reader never sees half a file.

use std::fmt;
use std::io::Write;
use std::path::Path;

pub use crate::format::file::{
    BoardInfo, Claim, ClassInfo, Member, ProofInfo, ResultFile, RulesInfo, RunInfo,
};
use serde::Deserialize;

/// The magic bytes.
pub const MAGIC: [u8; 8] = *b"GOSOLVE\x1a";
/// The first bytes of a zstd frame: a file that starts with them is a
/// compressed result file.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
/// Files whose plain bytes are more than this are written compressed.
pub const COMPRESS_ABOVE: usize = 1 << 20;
/// zstd's level: 9 compresses 60 MB in about a second, 19 gains another
/// 12% in 23 s.
const LEVEL: i32 = 9;
/// The format version this program writes and reads.
pub const VERSION: u16 = 4;
/// A link's subtree that produced at most this many distinct colourings is
/// judged by their set (by [`colouring_hash`]); a larger one by a summary.
pub const MADE_LIMIT: usize = 1024;

/// The 64-bit hash of a colouring (black and white stones as point sets)
/// that links are judged by: a colouring whose hash is not among a
/// subtree's is not one of its colourings.
pub fn colouring_hash(black: u64, white: u64) -> u64 {
    let mut h = black.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32)
}
const HEADER: usize = 24;

/// Why a result file could not be read or written.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened, read or written.
    Io(String, std::io::Error),
    /// Shorter than its header says.
    Truncated {
        /// Bytes the header promises.
        expected: u64,
        /// Bytes there are.
        found: u64,
    },
    /// Not a gosolve result file.
    BadMagic,
    /// Written by a newer format.
    Version(u16),
    /// The payload does not match its checksum.
    Checksum {
        /// In the header.
        stored: u32,
        /// Of the bytes read.
        computed: u32,
    },
    /// The payload does not decode.
    Decode(String),
    /// Bytes after the payload.
    Trailing(u64),
    /// The payload decodes to something no writer writes.
    Invalid(crate::format::check::Invalid),
    /// A compressed file whose zstd frame does not decompress.
    Compressed(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(path, e) => write!(f, "{path}: {e}"),
            FileError::Truncated { expected, found } => write!(
                f,
                "truncated result file: {found} bytes where {expected} are needed"
            ),
            FileError::BadMagic => f.write_str("not a gosolve result file (wrong magic bytes)"),
            FileError::Version(v) => write!(
                f,
                "result file format version {v} is newer than this program reads ({VERSION})"
            ),
            FileError::Checksum { stored, computed } => write!(
                f,
                "corrupted result file: checksum {computed:08x}, header says {stored:08x}"
            ),
            FileError::Decode(e) => write!(f, "corrupted result file: {e}"),
            FileError::Trailing(n) => write!(f, "corrupted result file: {n} bytes after the end"),
            FileError::Invalid(e) => write!(f, "invalid result file: {e}"),
            FileError::Compressed(e) => {
                write!(f, "corrupted or truncated compressed result file: {e}")
            }
        }
    }
}

impl std::error::Error for FileError {}

/// The largest payload read: a corrupted length cannot ask for more
/// memory than a file could need.
const PAYLOAD_LIMIT: usize = 1 << 31;

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<PAYLOAD_LIMIT>()
}

/// The file's bytes as written: plain, or compressed above
/// [`COMPRESS_ABOVE`].
pub fn encode_for_file(r: &ResultFile) -> Vec<u8> {
    let plain = encode(r);
    if plain.len() > COMPRESS_ABOVE {
        compress(&plain)
    } else {
        plain
    }
}

/// `plain` (a file's bytes) as one zstd frame with its content checksum.
pub fn compress(plain: &[u8]) -> Vec<u8> {
    let mut z = zstd::stream::Encoder::new(Vec::new(), LEVEL).expect("a zstd encoder");
    z.include_checksum(true).expect("a zstd parameter");
    z.set_pledged_src_size(Some(plain.len() as u64))
        .expect("a zstd parameter");
    z.write_all(plain).expect("compressing to memory");
    z.finish().expect("compressing to memory")
}

/// The plain bytes of a compressed file: exactly one frame, which says
/// its size (this program's writer always does), at most a header and the
/// largest payload the decoder takes, so a corrupted frame cannot ask for
/// more memory than a file could need; the buffer is that size exactly.
fn decompress(bytes: &[u8]) -> Result<Vec<u8>, FileError> {
    use zstd::zstd_safe;
    let bad = FileError::Compressed;
    let frame = zstd_safe::find_frame_compressed_size(bytes)
        .map_err(|c| bad(zstd_safe::get_error_name(c).to_string()))?;
    if frame < bytes.len() {
        return Err(bad(format!(
            "{} bytes after the frame",
            bytes.len() - frame
        )));
    }
    let limit = HEADER + PAYLOAD_LIMIT;
    let size = match zstd_safe::get_frame_content_size(bytes) {
        Ok(Some(n)) if n <= limit as u64 => n as usize,
        Ok(Some(n)) => {
            return Err(bad(format!(
                "it says it holds {n} bytes, more than a result file can"
            )));
        }
        Ok(None) => return Err(bad("its frame does not say its size".into())),
        Err(_) => return Err(bad("its frame header is damaged".into())),
    };
    let plain = zstd::bulk::decompress(bytes, size).map_err(|e| bad(e.to_string()))?;
    if plain.len() != size {
        return Err(bad(format!(
            "it holds {} bytes where its frame says {size}",
            plain.len()
        )));
    }
    Ok(plain)
}

/// The file's plain bytes.
pub fn encode(r: &ResultFile) -> Vec<u8> {
    let payload = bincode::serde::encode_to_vec(r, config()).expect("encoding to memory");
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Reads a file's bytes, plain or compressed: the container, then every
/// field ([`crate::format::check`]), so a file it returns holds only codes
/// and claims its readers can trust.
pub fn decode(bytes: &[u8]) -> Result<ResultFile, FileError> {
    if bytes.starts_with(&ZSTD_MAGIC) {
        return decode_plain(&decompress(bytes)?);
    }
    decode_plain(bytes)
}

fn decode_plain(bytes: &[u8]) -> Result<ResultFile, FileError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(if MAGIC.starts_with(bytes) {
            FileError::Truncated {
                expected: HEADER as u64,
                found: bytes.len() as u64,
            }
        } else {
            FileError::BadMagic
        });
    }
    if bytes.len() < HEADER {
        return Err(FileError::Truncated {
            expected: HEADER as u64,
            found: bytes.len() as u64,
        });
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version == 0 {
        return Err(FileError::Decode("format version 0 does not exist".into()));
    }
    if version > VERSION {
        return Err(FileError::Version(version));
    }
    if bytes[10..12] != [0, 0] {
        return Err(FileError::Decode(
            "reserved header bytes are not zero".into(),
        ));
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let stored = u32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes"));
    let have = (bytes.len() - HEADER) as u64;
    if have < len {
        return Err(FileError::Truncated {
            expected: HEADER as u64 + len,
            found: bytes.len() as u64,
        });
    }
    if have > len {
        return Err(FileError::Trailing(have - len));
    }
    let payload = &bytes[HEADER..];
    let computed = crc32fast::hash(payload);
    if computed != stored {
        return Err(FileError::Checksum { stored, computed });
    }
    let decoded = if version < 4 {
        bincode::serde::decode_from_slice::<PayloadV3, _>(payload, config())
            .map(|(r, n)| (r.into(), n))
    } else {
        bincode::serde::decode_from_slice(payload, config())
    };
    let (r, used): (ResultFile, usize) = decoded.map_err(|e| FileError::Decode(e.to_string()))?;
    if used != payload.len() {
        return Err(FileError::Decode(format!(
            "{} bytes left over in the payload",
            payload.len() - used
        )));
    }
    crate::format::check::settle(&r).map_err(FileError::Invalid)?;
    Ok(r)
}

/// The payload of versions 1 to 3, whose classes are all exact.
#[derive(Deserialize)]
struct PayloadV3 {
    board: BoardInfo,
    rules: RulesInfo,
    run: RunInfo,
    value: i32,
    classes: Vec<(i32, Vec<Member>)>,
    pv: Vec<u8>,
    proofs: Vec<ProofInfo>,
}

impl From<PayloadV3> for ResultFile {
    fn from(f: PayloadV3) -> ResultFile {
        let classes = f.classes.into_iter();
        ResultFile {
            board: f.board,
            rules: f.rules,
            run: f.run,
            value: f.value,
            classes: classes
                .map(|(value, members)| ClassInfo {
                    value,
                    claim: Claim::Exact,
                    members,
                })
                .collect(),
            pv: f.pv,
            proofs: f.proofs,
        }
    }
}

/// Reads a result file.
pub fn read(path: &Path) -> Result<ResultFile, FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::Io(path.display().to_string(), e))?;
    decode(&bytes)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// folder, synced, then renamed over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, &mut |f| f.write_all(bytes))
}

/// [`write_atomic`] of what `write` writes (a file too large to build in
/// memory first, such as a table checkpoint).
pub fn write_atomic_with(
    path: &Path,
    write: &mut dyn FnMut(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let io = |e| FileError::Io(path.display().to_string(), e);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let name = path
        .file_name()
        .map_or("result".into(), |n| n.to_string_lossy());
    // Unique per call: two writers of one process may share a path (a batch
    // with a job twice, a resume file written by two threads).
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(temporary_name(&name, serial));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        write(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Removes the temporary files [`write_atomic_with`] left in `dir` (a
/// process killed while writing leaves one, as large as the file): of the
/// file named `name`, or of every file when `name` is empty.
pub fn remove_temporaries(dir: &Path, name: &str) {
    remove_temporaries_if(dir, name, |_, _| true);
}

/// [`remove_temporaries`], but only those of writers that are gone:
/// where other processes may be writing into the folder at that moment
/// (two solves keeping one guide table, two batches sharing an output
/// folder). A temporary file's name shows its writer's process and host
/// (`.NAME.PID-SERIAL-HOST.tmp`). One written on this host is removed
/// when that process no longer exists; one written on another host
/// sharing the folder (or by an older gosolve, whose names show no host)
/// only when, besides, it has not changed for [`STALE_AFTER`], as a
/// process id says nothing across hosts and a live writer keeps its
/// file's time fresh. A file whose name shows no process is kept.
pub fn remove_stale_temporaries(dir: &Path, name: &str) {
    let here = host_tag();
    remove_temporaries_if(dir, name, |writer, path| {
        let Some((pid, host)) = writer else {
            return false;
        };
        // SAFETY: signal 0 sends nothing; it only asks whether `pid` is a
        // process.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        let gone = !alive && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        let quiet = || {
            std::fs::metadata(path)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age >= STALE_AFTER))
        };
        gone && (host == Some(here) || quiet())
    });
}

/// How long a temporary file of a writer on another host must have been
/// left unchanged before [`remove_stale_temporaries`] takes it for
/// abandoned. Writers write without pause (the largest file, a table
/// checkpoint, streams from memory), so a minute is ample.
pub const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// This host in temporary files' names: a hash of its name (32 bits, as
/// hex), which may hold characters a file name should not. Asked of the
/// system once per process.
fn host_tag() -> u32 {
    static TAG: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *TAG.get_or_init(host_name_hash)
}

/// [`host_tag`], from the system's host name.
fn host_name_hash() -> u32 {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; on success the name is
    // NUL-terminated within it (truncated names are hashed as they are).
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let name = if ok {
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        &buf[..end]
    } else {
        &[][..]
    };
    // FNV-1a: stable across builds and versions, unlike std's hasher.
    name.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The temporary file's name for a write of `name` (see
/// [`remove_stale_temporaries`]).
fn temporary_name(name: &str, serial: u64) -> String {
    format!(
        ".{name}.{}-{serial}-{:08x}.tmp",
        std::process::id(),
        host_tag()
    )
}

/// The writer a temporary file's name shows: its process id and, where
/// the name has one, its host tag.
type Writer = (i32, Option<u32>);

/// The [`Writer`] of a temporary file, from its name.
fn writer_of(file_name: &str) -> Option<Writer> {
    let stem = file_name.strip_suffix(".tmp")?;
    let mut parts = stem.rsplit('.').next()?.split('-');
    let pid = parts.next()?.parse::<i32>().ok()?;
    let _serial = parts.next();
    let host = parts.next().and_then(|h| u32::from_str_radix(h, 16).ok());
    Some((pid, host))
}

/// Removes the temporary files of [`remove_temporaries`] that `remove`
/// accepts, given the writer its name shows (`None` where it shows none)
/// and the file's path.
fn remove_temporaries_if(dir: &Path, name: &str, remove: impl Fn(Option<Writer>, &Path) -> bool) {
    let prefix = if name.is_empty() {
        ".".to_string()
    } else {
        format!(".{name}.")
    };
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if !(n.starts_with(&prefix) && n.ends_with(".tmp")) {
                continue;
            }
            let path = e.path();
            if remove(writer_of(&n), &path) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// Writes a result file atomically.
pub fn write(path: &Path, r: &ResultFile) -> Result<(), FileError> {
    write_atomic(path, &encode_for_file(r))
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_date_is_in_iso_form() {
        let d = now_utc();
        assert_eq!(d.len(), 20);
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }

    /// Only the temporaries of writers that are gone are removed: at once
    /// for this host's, after [`STALE_AFTER`] unchanged for another
    /// host's or an older name's; never a live process's or a name
    /// without a process.
    #[test]
    fn stale_temporaries_are_those_of_writers_gone() {
        let dir = std::env::temp_dir().join(format!("gosolve-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (me, gone, here) = (std::process::id(), i32::MAX, host_tag());
        let other = here.wrapping_add(1);
        let old = std::time::SystemTime::now() - 2 * STALE_AFTER;
        // (name, made old, removed)
        let cases = [
            (temporary_name("a.gsr", 7), false, false),
            (format!(".a.gsr.{gone}-0-{here:08x}.tmp"), false, true),
            (format!(".a.gsr.{gone}-1-{other:08x}.tmp"), false, false),
            (format!(".a.gsr.{gone}-2-{other:08x}.tmp"), true, true),
            (format!(".a.gsr.{gone}-3.tmp"), false, false),
            (format!(".a.gsr.{gone}-4.tmp"), true, true),
            (format!(".a.gsr.{me}-5.tmp"), true, false),
            (".a.gsr.x.tmp".to_string(), true, false),
            (format!(".b.gsr.{gone}-6-{here:08x}.tmp"), false, false),
        ];
        for (name, made_old, _) in &cases {
            let f = std::fs::File::create(dir.join(name)).unwrap();
            if *made_old {
                f.set_modified(old).unwrap();
            }
        }
        assert_eq!(writer_of(&cases[0].0), Some((me as i32, Some(here))));
        remove_stale_temporaries(&dir, "a.gsr");
        for (name, _, removed) in &cases {
            assert_eq!(!dir.join(name).exists(), *removed, "{name}");
        }
        remove_stale_temporaries(&dir, "");
        assert!(!dir.join(&cases[8].0).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
