//! Memory and files, checked before use: storage sized from the command line is compared
//! with the machine's memory and allocated fallibly (an allocation failure is a message,
//! not an abort), and output files are replaced whole or not at all.
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::Failure;

/// The machine's memory in bytes, where the system says (Linux); `None` elsewhere.
pub fn machine_memory() -> Option<u64> {
    let info = fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Refuses `bytes` (`None`: more than a `u64` holds) for `what` when the machine has less
/// memory: an allocation the kernel grants lazily would otherwise end in the OOM killer.
pub fn check_memory(bytes: Option<u64>, what: &str) -> Result<(), Failure> {
    let have = machine_memory();
    match (bytes, have) {
        (Some(bytes), Some(have)) if bytes <= have => Ok(()),
        (Some(bytes), None) => usize::try_from(bytes)
            .ok()
            .filter(|&b| b <= isize::MAX as usize)
            .map(|_| ())
            .ok_or_else(|| Failure::Job(too_much(Some(bytes), what, None))),
        (bytes, have) => Err(Failure::Job(too_much(bytes, what, have))),
    }
}

/// `cannot allocate N bytes for <what>`, with the machine's memory where known.
fn too_much(bytes: Option<u64>, what: &str, have: Option<u64>) -> String {
    let bytes = bytes.map_or("more than 2^64".to_owned(), |b| b.to_string());
    let machine = have.map_or(String::new(), |h| {
        format!(" (the machine has {h} bytes of memory)")
    });
    format!("cannot allocate {bytes} bytes for {what}{machine}")
}

/// The bytes of `count` values of `T`, or `None` past `u64`.
pub fn bytes_of<T>(count: usize) -> Option<u64> {
    (size_of::<T>() as u64).checked_mul(count as u64)
}

/// `len` copies of `value`, or a message when they cannot be allocated.
pub fn filled<T: Clone>(len: usize, value: T, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| too_much(bytes_of::<T>(len), what, None))?;
    v.resize(len, value);
    Ok(v)
}

/// Writes `text` to `path` whole or not at all: through `<path>.partial` and a rename, so
/// that a full disk or a killed run leaves the previous file as it was. A path that exists
/// and is not a regular file (`/dev/stdout`, a pipe) is written directly.
pub fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    let failed = |e: std::io::Error| Failure::Job(format!("cannot write {}: {e}", path.display()));
    let special = fs::metadata(path).is_ok_and(|m| !m.is_file());
    if special {
        return fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut file| file.write_all(text.as_bytes()).and_then(|()| file.flush()))
            .map_err(failed);
    }
    let mut temporary = PathBuf::from(path);
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".partial");
    temporary.set_file_name(name);
    let written = fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        file.sync_all()
    });
    match written.and_then(|()| fs::rename(&temporary, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            // Nothing half-written stays behind; the previous file is untouched.
            if fs::symlink_metadata(&temporary).is_ok_and(|m| m.is_file()) {
                let _ = fs::remove_file(&temporary);
            }
            Err(failed(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_memory_is_refused_before_allocating() {
        assert!(check_memory(Some(1 << 20), "a test").is_ok());
        let refused = check_memory(Some(u64::MAX), "a test");
        assert!(
            matches!(refused, Err(Failure::Job(m)) if m.contains("cannot allocate 18446744073709551615 bytes for a test"))
        );
        assert!(check_memory(None, "a test").is_err());
        assert!(filled(usize::MAX / 8, 0u64, "a test").is_err());
        assert_eq!(filled(3, 7u8, "a test").unwrap(), [7, 7, 7]);
    }

    #[test]
    fn a_failed_write_keeps_the_previous_file() {
        let dir = std::env::temp_dir().join(format!("arbor-write-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.txt");
        write_file(&path, "first\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "first\n");
        // A directory where the temporary file goes: the write fails, the file stays.
        fs::create_dir(dir.join("out.txt.partial")).unwrap();
        assert!(
            matches!(write_file(&path, "second\n"), Err(Failure::Job(m)) if m.contains("cannot write"))
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "first\n");
        let _ = fs::remove_dir_all(&dir);
    }
}
