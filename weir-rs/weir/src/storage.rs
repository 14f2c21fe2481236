//! Where a table's files are: a local directory, or an S3 bucket (`s3://bucket/path` or
//! `s3a://…`) through the `object_store` crate, configured with the same `s3.*` options as Weir's
//! Java side (docs/s3.md, docs/options.md). Files are named by paths joined onto the location, so
//! errors name `s3://bucket/key` as they name local paths.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};

use bytes::Bytes;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as ObjectPath;
use object_store::{ClientOptions, ObjectStore, ObjectStoreExt, PutPayload, RetryConfig};

use crate::error::{Error, Result};

/// The storage options this reader takes; the others of the Java side concern writers.
const S3_OPTIONS: [&str; 10] = [
    "s3.endpoint",
    "s3.region",
    "s3.path-style-access",
    "s3.access-key",
    "s3.secret-key",
    "s3.max-connections",
    "s3.max-retries",
    "s3.read-ahead",
    "s3.multipart.part-size",
    "s3.multipart.max-in-flight",
];

/// A table's file system.
#[derive(Debug)]
pub enum Storage {
    Local,
    S3 {
        store: Arc<AmazonS3>,
        /// `s3://bucket/`: what a path starts with; the rest is the object key.
        prefix: String,
        runtime: tokio::runtime::Runtime,
    },
}

fn invalid(message: String) -> Error {
    Error::Invalid(message)
}

fn number(
    options: &BTreeMap<String, String>,
    key: &str,
    min: u64,
    max: u64,
) -> Result<Option<u64>> {
    match options.get(key) {
        None => Ok(None),
        Some(v) => match v.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(invalid(format!(
                "Invalid storage option '{key}' = '{v}': must be an integer between {min} and {max}"
            ))),
        },
    }
}

impl Storage {
    /// The storage of `location`, with its storage options (`s3.*`); a local path takes none.
    pub fn open(location: &str, options: &BTreeMap<String, String>) -> Result<(Storage, PathBuf)> {
        let scheme = ["s3://", "s3a://"]
            .into_iter()
            .find(|s| location.starts_with(s));
        let Some(scheme) = scheme else {
            if let Some(k) = options.keys().next() {
                return Err(invalid(format!(
                    "Storage option '{k}' applies to s3:// locations only, not {location}"
                )));
            }
            return Ok((Storage::Local, PathBuf::from(location)));
        };
        for k in options.keys() {
            if !S3_OPTIONS.contains(&k.as_str()) {
                return Err(invalid(format!(
                    "Unknown storage option '{k}' (options: {})",
                    S3_OPTIONS.join(", ")
                )));
            }
        }
        let rest = location[scheme.len()..].trim_end_matches('/');
        let bucket = rest.split('/').next().unwrap_or("");
        if bucket.is_empty() {
            return Err(invalid(format!(
                "Invalid location {location}: expected {scheme}<bucket>/<path>"
            )));
        }
        install_crypto();
        // The AWS chains of the Java SDK, as far as object_store has them: AWS_* variables.
        let mut b = AmazonS3Builder::from_env().with_bucket_name(bucket);
        let endpoint = options.get("s3.endpoint");
        let mut client = ClientOptions::new();
        if let Some(e) = endpoint {
            b = b.with_endpoint(e);
            client = client.with_allow_http(e.starts_with("http://"));
        }
        match options.get("s3.region") {
            Some(r) => b = b.with_region(r),
            None if endpoint.is_some() && std::env::var_os("AWS_REGION").is_none() => {
                b = b.with_region("us-east-1")
            }
            None => {}
        }
        let path_style = match options
            .get("s3.path-style-access")
            .map(|v| v.to_ascii_lowercase())
        {
            None => false,
            Some(v) if v == "true" => true,
            Some(v) if v == "false" => false,
            Some(v) => {
                return Err(invalid(format!(
                    "Invalid storage option 's3.path-style-access' = '{v}': must be true or false"
                )));
            }
        };
        b = b.with_virtual_hosted_style_request(!path_style);
        match (options.get("s3.access-key"), options.get("s3.secret-key")) {
            (Some(a), Some(s)) => b = b.with_access_key_id(a).with_secret_access_key(s),
            (None, None) => {}
            _ => {
                return Err(invalid(
                    "Storage options 's3.access-key' and 's3.secret-key' go together: set both or neither"
                        .into(),
                ));
            }
        }
        if let Some(n) = number(options, "s3.max-connections", 1, u32::MAX as u64)? {
            client = client.with_pool_max_idle_per_host(n as usize);
        }
        b = b.with_client_options(client);
        if let Some(n) = number(options, "s3.max-retries", 0, 100)? {
            b = b.with_retry(RetryConfig {
                max_retries: n as usize,
                ..RetryConfig::default()
            });
        }
        let store = b
            .build()
            .map_err(|e| invalid(format!("Cannot open {location}: {e}")))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::io(location, e))?;
        Ok((
            Storage::S3 {
                store: Arc::new(store),
                prefix: format!("s3://{bucket}/"),
                runtime,
            },
            PathBuf::from(format!("s3://{rest}")),
        ))
    }

    /// The object key of a path, as it is: keys hold `%` (partition paths are URL-encoded,
    /// docs/format.md §1), which `ObjectPath::from` would encode once more.
    fn key(prefix: &str, path: &Path) -> Result<ObjectPath> {
        let text = path.to_string_lossy();
        ObjectPath::parse(text.strip_prefix(prefix).unwrap_or(&text)).map_err(|e| {
            Error::io(
                path,
                std::io::Error::new(ErrorKind::InvalidInput, e.to_string()),
            )
        })
    }

    fn os_error(path: &Path, e: object_store::Error) -> Error {
        let kind = match e {
            object_store::Error::NotFound { .. } => ErrorKind::NotFound,
            _ => ErrorKind::Other,
        };
        // With the root cause: the HTTP client's own messages are terse ("builder error").
        let mut message = e.to_string();
        let mut root = std::error::Error::source(&e);
        while let Some(next) = root.and_then(|s| s.source()) {
            root = Some(next);
        }
        if let Some(r) = root.map(|r| r.to_string())
            && !message.contains(&r)
        {
            message.push_str(&format!(": {r}"));
        }
        Error::io(path, std::io::Error::new(kind, message))
    }

    /// The whole file.
    pub fn read(&self, path: &Path) -> Result<Bytes> {
        match self {
            Storage::Local => std::fs::read(path)
                .map(Bytes::from)
                .map_err(|e| Error::io(path, e)),
            Storage::S3 {
                store,
                prefix,
                runtime,
            } => {
                let key = Self::key(prefix, path)?;
                runtime
                    .block_on(async { store.get(&key).await?.bytes().await })
                    .map_err(|e| Self::os_error(path, e))
            }
        }
    }

    /// The file as UTF-8 text.
    pub fn read_to_string(&self, path: &Path) -> Result<String> {
        let bytes = self.read(path)?;
        String::from_utf8(bytes.to_vec()).map_err(|e| {
            Error::io(
                path,
                std::io::Error::new(ErrorKind::InvalidData, e.to_string()),
            )
        })
    }

    /// Whether the file exists.
    pub fn exists(&self, path: &Path) -> Result<bool> {
        match self {
            Storage::Local => Ok(path.is_file()),
            Storage::S3 {
                store,
                prefix,
                runtime,
            } => {
                let key = Self::key(prefix, path)?;
                match runtime.block_on(store.head(&key)) {
                    Ok(_) => Ok(true),
                    Err(object_store::Error::NotFound { .. }) => Ok(false),
                    Err(e) => Err(Self::os_error(path, e)),
                }
            }
        }
    }

    /// The names of the files directly in `dir`; empty if there is no such directory.
    pub fn list(&self, dir: &Path) -> Result<Vec<String>> {
        match self {
            Storage::Local => {
                let entries = match std::fs::read_dir(dir) {
                    Ok(e) => e,
                    Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
                    Err(e) => return Err(Error::io(dir, e)),
                };
                entries
                    .map(|e| {
                        e.map(|e| e.file_name().to_string_lossy().into_owned())
                            .map_err(|e| Error::io(dir, e))
                    })
                    .collect()
            }
            Storage::S3 {
                store,
                prefix,
                runtime,
            } => {
                let key = Self::key(prefix, dir)?;
                let listed = runtime
                    .block_on(store.list_with_delimiter(Some(&key)))
                    .map_err(|e| Self::os_error(dir, e))?;
                Ok(listed
                    .objects
                    .into_iter()
                    .filter_map(|o| o.location.filename().map(str::to_string))
                    .collect())
            }
        }
    }

    /// Creates or replaces the file.
    pub fn write(&self, path: &Path, bytes: Bytes) -> Result<()> {
        match self {
            Storage::Local => {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
                }
                // Whole or not at all: a reader of the file never sees half of it.
                let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
                std::fs::write(&tmp, &bytes).map_err(|e| Error::io(&tmp, e))?;
                std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
            }
            Storage::S3 {
                store,
                prefix,
                runtime,
            } => {
                let key = Self::key(prefix, path)?;
                runtime
                    .block_on(store.put(&key, PutPayload::from(bytes)))
                    .map(|_| ())
                    .map_err(|e| Self::os_error(path, e))
            }
        }
    }

    /// Deletes the file; a missing file is not an error.
    pub fn delete(&self, path: &Path) -> Result<()> {
        match self {
            Storage::Local => match std::fs::remove_file(path) {
                Err(e) if e.kind() != ErrorKind::NotFound => Err(Error::io(path, e)),
                _ => Ok(()),
            },
            Storage::S3 {
                store,
                prefix,
                runtime,
            } => {
                let key = Self::key(prefix, path)?;
                match runtime.block_on(store.delete(&key)) {
                    Err(e) if !matches!(e, object_store::Error::NotFound { .. }) => {
                        Err(Self::os_error(path, e))
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

/// rustls needs one process-wide crypto provider: ring's, unless the process installed one.
fn install_crypto() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}
