//! Reader leases (docs/format.md §6.7): while a scan reads, `_weir/consumers/<id>.json` keeps
//! snapshot expiry from deleting the files of its snapshot.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};
use crate::metadata::MetadataDir;
use crate::storage::Storage;

/// Whether and how scans lease the snapshots they read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseOptions {
    /// Whether a scan holds a lease while it reads (default true).
    pub enabled: bool,
    /// The consumer id; default a new one per scan, `weir-rs-<pid>-<time>-<n>`.
    pub consumer_id: Option<String>,
    /// How long a lease protects the snapshot without being renewed (default 1 hour, as Weir's
    /// bounded Flink reads); a scan renews it when a third of this has passed.
    pub ttl: Duration,
}

impl Default for LeaseOptions {
    fn default() -> Self {
        LeaseOptions {
            enabled: true,
            consumer_id: None,
            ttl: Duration::from_secs(3600),
        }
    }
}

impl LeaseOptions {
    /// Checks the consumer id (1 to 200 of `[A-Za-z0-9._-]`, not starting with `.`) and the ttl.
    pub fn validate(&self) -> Result<()> {
        if let Some(id) = &self.consumer_id
            && (id.is_empty()
                || id.len() > 200
                || id.starts_with('.')
                || !id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)))
        {
            return Err(Error::Invalid(format!(
                "Invalid consumer id '{id}': use 1 to 200 letters, digits, '.', '_' or '-', not starting with '.'"
            )));
        }
        if self.ttl < Duration::from_secs(1) {
            return Err(Error::Invalid(format!(
                "Invalid lease duration {:?}: must be at least 1 s",
                self.ttl
            )));
        }
        Ok(())
    }
}

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn fresh_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "weir-rs-{}-{nanos:x}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A lease held by a scan; released when dropped.
#[derive(Debug)]
pub struct Lease {
    storage: Arc<Storage>,
    path: PathBuf,
    consumer_id: String,
    commit_id: i64,
    ttl: Duration,
    renewed: Instant,
}

impl Lease {
    /// Writes the lease on `commit_id`, then checks that the commit has not expired (the order
    /// of §6.7: either this reader sees the expiry, or the expiry sees the lease).
    pub(crate) fn acquire(
        meta: &MetadataDir,
        options: &LeaseOptions,
        commit_id: i64,
    ) -> Result<Lease> {
        let consumer_id = options.consumer_id.clone().unwrap_or_else(fresh_id);
        let path = meta
            .location
            .join("_weir")
            .join("consumers")
            .join(format!("{consumer_id}.json"));
        let lease = Lease {
            storage: meta.storage.clone(),
            path,
            consumer_id,
            commit_id,
            ttl: options.ttl,
            renewed: Instant::now(),
        };
        lease.write()?;
        let earliest = meta.earliest_retained()?;
        if commit_id < earliest {
            // Dropping the lease deletes it.
            return Err(Error::SnapshotNotFound(format!(
                "Snapshot {commit_id} of table {} has expired (the earliest retained commit is {earliest})",
                meta.location.display()
            )));
        }
        Ok(lease)
    }

    fn write(&self) -> Result<()> {
        let json = crate::json::with_checksum(&format!(
            "{{\n  \"format-version\" : 1,\n  \"consumer-id\" : \"{}\",\n  \"commit-id\" : {},\n  \"expires-millis\" : {}\n}}\n",
            self.consumer_id,
            self.commit_id,
            now_millis() + self.ttl.as_millis() as i64
        ));
        self.storage.write(&self.path, json.into()).map_err(|e| {
            Error::Invalid(format!(
                "Cannot write the reader lease {} ({e}); read with leases disabled where the table is read-only",
                self.path.display()
            ))
        })
    }

    /// Renews the lease once a third of its duration has passed.
    pub(crate) fn renew_if_due(&mut self) -> Result<()> {
        if self.renewed.elapsed() >= self.ttl / 3 {
            self.write()?;
            self.renewed = Instant::now();
        }
        Ok(())
    }

    /// The lease's consumer id.
    pub fn consumer_id(&self) -> &str {
        &self.consumer_id
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // A lease left behind by a failed delete ends at its expiry time.
        let _ = self.storage.delete(&self.path);
    }
}
