//! Reading tables from S3: the conformance corpus served by a real S3-compatible server
//! (versitygw 1.8.0, as Weir's Java S3 tests use; `$WEIR_VERSITYGW`, else
//! `~/.cache/weir-test-bin/versitygw-1.8.0`), started by this test on a free port with a data
//! directory of its own whose bucket `corpus` holds a copy of the corpus. Every snapshot read
//! through `s3://` must equal the same read of the local copy; leases are written and removed
//! through S3; bad storage options and missing objects give clear errors.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use weir::{Error, SnapshotSpec, Table};

struct Server {
    child: Child,
    port: u16,
    data: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

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

/// versitygw serving a copy of the corpus tables `names` in the bucket `corpus`.
fn start(names: &[&str]) -> Server {
    let binary = std::env::var_os("WEIR_VERSITYGW")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var("HOME").unwrap())
                .join(".cache/weir-test-bin/versitygw-1.8.0")
        });
    assert!(
        binary.is_file(),
        "The S3 tests need versitygw 1.8.0 at {} (set WEIR_VERSITYGW; .ci/run builds it)",
        binary.display()
    );
    let data = std::env::temp_dir().join(format!(
        "weir-rs-s3-{}-{}",
        std::process::id(),
        names.join("-")
    ));
    let _ = std::fs::remove_dir_all(&data);
    for n in names {
        copy_dir(
            &corpus().join(n).join("table"),
            &data.join("corpus").join(n),
        );
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(&binary)
        .args(["--port", &format!("127.0.0.1:{port}"), "--quiet", "posix"])
        .arg(&data)
        .env("ROOT_ACCESS_KEY", "testkey")
        .env("ROOT_SECRET_KEY", "testsecret")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server { child, port, data };
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "versitygw did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

fn options(port: u16) -> BTreeMap<String, String> {
    [
        ("s3.endpoint", format!("http://127.0.0.1:{port}")),
        ("s3.path-style-access", "true".into()),
        ("s3.access-key", "testkey".into()),
        ("s3.secret-key", "testsecret".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn rows(table: &Table, spec: SnapshotSpec) -> Vec<String> {
    let batches: Vec<RecordBatch> = table
        .scan(None, None, spec)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut out: Vec<String> = batches
        .iter()
        .flat_map(|b| {
            let b = b.clone();
            (0..b.num_rows()).map(move |i| format!("{:?}", b.slice(i, 1)))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn reads_tables_from_s3_as_from_local_disk() {
    let names = ["keyed_all_types", "append_all_types", "engine_aggregation"];
    let server = start(&names);
    let opts = options(server.port);
    for n in names {
        let local = Table::open(corpus().join(n).join("table")).unwrap();
        let remote = Table::open_with_options(&format!("s3://corpus/{n}"), &opts).unwrap();
        assert_eq!(
            remote.location().to_string_lossy(),
            format!("s3://corpus/{n}")
        );
        let snapshots = local.snapshots().unwrap();
        assert_eq!(
            remote
                .snapshots()
                .unwrap()
                .iter()
                .map(|s| s.commit_id)
                .collect::<Vec<_>>(),
            snapshots.iter().map(|s| s.commit_id).collect::<Vec<_>>()
        );
        for s in &snapshots {
            let want = rows(&local, SnapshotSpec::Id(s.commit_id));
            assert!(!want.is_empty());
            assert_eq!(
                rows(&remote, SnapshotSpec::Id(s.commit_id)),
                want,
                "{n} snapshot {}",
                s.commit_id
            );
        }
        // The scan held a lease in S3 while it read, and removed it at the end.
        let consumers = server.data.join("corpus").join(n).join("_weir/consumers");
        let mut scan = remote.scan(None, None, SnapshotSpec::Latest).unwrap();
        let id = scan.lease_consumer_id().unwrap().to_string();
        let lease = std::fs::read_to_string(consumers.join(format!("{id}.json"))).unwrap();
        let latest = remote.latest_commit_id().unwrap();
        assert!(
            lease.contains(&format!("\"commit-id\" : {latest}")),
            "{lease}"
        );
        scan.next().unwrap().unwrap();
        for _ in scan.by_ref() {}
        assert!(!consumers.join(format!("{id}.json")).exists());
    }
}

#[test]
fn bad_storage_options_and_missing_tables_are_named() {
    let server = start(&["keyed_expired"]);
    let mut opts = options(server.port);
    let err = Table::open_with_options("s3://corpus/nothing-here", &opts).unwrap_err();
    assert!(
        matches!(err, Error::NotATable(..)) && err.to_string().contains("s3://corpus/nothing-here"),
        "{err}"
    );
    opts.insert("s3.max-retries".into(), "-1".into());
    let err = Table::open_with_options("s3://corpus/keyed_expired", &opts).unwrap_err();
    assert!(err.to_string().contains("'s3.max-retries' = '-1'"), "{err}");
    opts.remove("s3.max-retries");
    opts.insert("s3.bogus".into(), "1".into());
    let err = Table::open_with_options("s3://corpus/keyed_expired", &opts).unwrap_err();
    assert!(
        err.to_string()
            .contains("Unknown storage option 's3.bogus'"),
        "{err}"
    );
    opts.remove("s3.bogus");
    opts.insert("s3.secret-key".into(), "wrong".into());
    let err = Table::open_with_options("s3://corpus/keyed_expired", &opts).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");
    let err = Table::open_with_options("/tmp/x", &options(server.port)).unwrap_err();
    assert!(
        err.to_string().contains("applies to s3:// locations only"),
        "{err}"
    );
}
