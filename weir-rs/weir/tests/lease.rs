//! Reader leases (docs/format.md §6.7) on a copy of a corpus table: a scan writes
//! `_weir/consumers/<id>.json` before it checks the snapshot, renews it while it reads, and
//! removes it when it ends or is dropped; a lease on an expired snapshot fails and leaves nothing.

use std::path::{Path, PathBuf};
use std::time::Duration;

use weir::{Error, LeaseOptions, SnapshotSpec, Table};

fn corpus() -> PathBuf {
    std::env::var_os("WEIR_READER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weir-flink/target/reader-corpus")
        })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn table_copy(name: &str, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("weir-rs-lease-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&corpus().join(name).join("table"), &dir);
    dir
}

fn lease_json(dir: &Path, id: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(format!("_weir/consumers/{id}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_scan_holds_a_lease_while_it_reads() {
    let dir = table_copy("keyed_expired", "hold");
    let table = Table::open(&dir)
        .unwrap()
        .with_leases(LeaseOptions {
            consumer_id: Some("reader-1".into()),
            ttl: Duration::from_secs(3),
            ..LeaseOptions::default()
        })
        .unwrap();
    let latest = table.latest_commit_id().unwrap();
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let mut scan = table.scan(None, None, SnapshotSpec::Latest).unwrap();
    assert_eq!(scan.lease_consumer_id(), Some("reader-1"));
    let v = lease_json(&dir, "reader-1");
    assert_eq!(v["format-version"], 1);
    assert_eq!(v["consumer-id"], "reader-1");
    assert_eq!(v["commit-id"], latest);
    let expires = v["expires-millis"].as_i64().unwrap();
    assert!(expires >= before + 3000 && expires < before + 60_000, "{v}");
    // After a third of the ttl, the next batch renews it.
    std::thread::sleep(Duration::from_millis(1100));
    scan.next().unwrap().unwrap();
    let renewed = lease_json(&dir, "reader-1")["expires-millis"]
        .as_i64()
        .unwrap();
    assert!(renewed >= expires + 1000, "{renewed} after {expires}");
    for b in scan.by_ref() {
        b.unwrap();
    }
    assert!(!dir.join("_weir/consumers/reader-1.json").exists());

    // Dropped before the end: released too. A change read leases its start.
    let first = table.snapshots().unwrap()[0].commit_id;
    let changes = table.changes(first, latest, None, None).unwrap();
    assert_eq!(lease_json(&dir, "reader-1")["commit-id"], first);
    drop(changes);
    assert!(!dir.join("_weir/consumers/reader-1.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_lease_on_an_expired_snapshot_fails_and_leaves_nothing() {
    let dir = table_copy("keyed_expired", "expired");
    let table = Table::open(&dir).unwrap();
    let err = table
        .scan(None, None, SnapshotSpec::Id(1))
        .err()
        .expect("expired");
    assert!(matches!(err, Error::SnapshotNotFound(_)), "{err}");
    assert!(err.to_string().contains("has expired"), "{err}");
    let consumers = dir.join("_weir/consumers");
    assert!(!consumers.exists() || std::fs::read_dir(&consumers).unwrap().count() == 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn leases_can_be_turned_off_and_ids_are_checked() {
    let dir = table_copy("keyed_expired", "off");
    let table = Table::open(&dir)
        .unwrap()
        .with_leases(LeaseOptions {
            enabled: false,
            ..LeaseOptions::default()
        })
        .unwrap();
    let scan = table.scan(None, None, SnapshotSpec::Latest).unwrap();
    assert_eq!(scan.lease_consumer_id(), None);
    let consumers = dir.join("_weir/consumers");
    assert!(!consumers.exists() || std::fs::read_dir(&consumers).unwrap().count() == 0);
    for id in ["", ".hidden", "a/b", &"x".repeat(201)] {
        let err = Table::open(&dir)
            .unwrap()
            .with_leases(LeaseOptions {
                consumer_id: Some(id.to_string()),
                ..LeaseOptions::default()
            })
            .unwrap_err();
        assert!(err.to_string().contains("Invalid consumer id"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
