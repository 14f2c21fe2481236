//! The `weir._weir` extension module: the Rust reader behind the `weir` Python package. Batches
//! leave through the Arrow C stream interface (PyCapsules), so any Arrow library can take them.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use arrow_array::ffi::{FFI_ArrowSchema, to_ffi};
use arrow_array::{Array, StructArray};
use arrow_schema::SchemaRef;
use pyo3::exceptions::{PyFileNotFoundError, PyIOError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use serde_json::Value as Json;

use weir::{Expr, Literal, Op, SnapshotSpec};

pyo3::create_exception!(_weir, WeirError, pyo3::exceptions::PyException);
pyo3::create_exception!(_weir, CorruptFileError, WeirError);
pyo3::create_exception!(_weir, SnapshotNotFoundError, WeirError);

fn to_py(e: weir::Error) -> PyErr {
    let msg = e.to_string();
    match e {
        weir::Error::Corrupt { .. }
        | weir::Error::CorruptMetadata { .. }
        | weir::Error::Parquet { .. } => CorruptFileError::new_err(msg),
        weir::Error::SnapshotNotFound(_) => SnapshotNotFoundError::new_err(msg),
        weir::Error::NotATable(..) => PyFileNotFoundError::new_err(msg),
        weir::Error::Io { .. } => PyIOError::new_err(msg),
        weir::Error::Invalid(_) => PyValueError::new_err(msg),
        weir::Error::Arrow(_) | weir::Error::SchemaMismatch { .. } => WeirError::new_err(msg),
    }
}

/// A scan, read batch by batch from Python: each batch leaves through the Arrow C data interface
/// (a schema and an array capsule), and errors keep their Python types.
#[pyclass(module = "weir._weir")]
struct BatchStream {
    /// None once the scan ended or failed. A mutex: Python may call from any thread.
    scan: Mutex<Option<weir::Scan>>,
    schema: SchemaRef,
}

fn schema_capsule<'py>(
    py: Python<'py>,
    schema: &arrow_schema::Schema,
) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi = FFI_ArrowSchema::try_from(schema).map_err(|e| WeirError::new_err(e.to_string()))?;
    PyCapsule::new_with_value(py, ffi, c"arrow_schema")
}

#[pymethods]
impl BatchStream {
    /// The Arrow schema capsule of every batch.
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }

    /// The next batch as (schema capsule, array capsule), or None at the end.
    fn next_batch<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)>> {
        let next = py.detach(|| {
            let mut guard = self.scan.lock().unwrap_or_else(|e| e.into_inner());
            let next = guard.as_mut().and_then(|scan| scan.next());
            if !matches!(next, Some(Ok(_))) {
                *guard = None;
            }
            next
        });
        match next {
            None => Ok(None),
            Some(Err(e)) => Err(to_py(e)),
            Some(Ok(batch)) => {
                let data = StructArray::from(batch).into_data();
                let (array, schema) =
                    to_ffi(&data).map_err(|e| WeirError::new_err(e.to_string()))?;
                Ok(Some((
                    PyCapsule::new_with_value(py, schema, c"arrow_schema")?,
                    PyCapsule::new_with_value(py, array, c"arrow_array")?,
                )))
            }
        }
    }
}

fn stream(scan: weir::Scan) -> BatchStream {
    BatchStream {
        schema: scan.schema(),
        scan: Mutex::new(Some(scan)),
    }
}

fn literal(v: &Json) -> PyResult<Literal> {
    let bad = || PyValueError::new_err(format!("Invalid filter literal {v}"));
    let t = v.get("t").and_then(Json::as_str).ok_or_else(bad)?;
    let x = v.get("v").ok_or_else(bad)?;
    Ok(match t {
        "bool" => Literal::Bool(x.as_bool().ok_or_else(bad)?),
        "int" => Literal::Int(x.as_i64().ok_or_else(bad)?),
        "float" => Literal::Float(match x.as_str() {
            Some(text) => text.parse().map_err(|_| bad())?,
            None => x.as_f64().ok_or_else(bad)?,
        }),
        "str" => Literal::Str(x.as_str().ok_or_else(bad)?.to_string()),
        "bytes" => Literal::Bytes(
            x.as_array()
                .ok_or_else(bad)?
                .iter()
                .map(|b| b.as_u64().map(|b| b as u8).ok_or_else(bad))
                .collect::<PyResult<_>>()?,
        ),
        _ => return Err(bad()),
    })
}

/// The filter as the Python package serializes it (weir/_filter.py).
fn expr(v: &Json) -> PyResult<Expr> {
    let bad = || PyValueError::new_err(format!("Invalid filter {v}"));
    let op = v.get("op").and_then(Json::as_str).ok_or_else(bad)?;
    let col = || -> PyResult<String> {
        Ok(v.get("col")
            .and_then(Json::as_str)
            .ok_or_else(bad)?
            .to_string())
    };
    let arg = |k: &str| -> PyResult<Box<Expr>> { Ok(Box::new(expr(v.get(k).ok_or_else(bad)?)?)) };
    Ok(match op {
        "=" | "!=" | "<" | "<=" | ">" | ">=" => {
            let o = match op {
                "=" => Op::Eq,
                "!=" => Op::Ne,
                "<" => Op::Lt,
                "<=" => Op::Le,
                ">" => Op::Gt,
                _ => Op::Ge,
            };
            Expr::Cmp(col()?, o, literal(v.get("lit").ok_or_else(bad)?)?)
        }
        "in" => Expr::In(
            col()?,
            v.get("lits")
                .and_then(Json::as_array)
                .ok_or_else(bad)?
                .iter()
                .map(literal)
                .collect::<PyResult<_>>()?,
        ),
        "is_null" => Expr::IsNull(col()?),
        "is_not_null" => Expr::IsNotNull(col()?),
        "and" => Expr::And(arg("a")?, arg("b")?),
        "or" => Expr::Or(arg("a")?, arg("b")?),
        "not" => Expr::Not(arg("a")?),
        _ => return Err(bad()),
    })
}

fn parse_filter(filter: Option<&str>) -> PyResult<Option<Expr>> {
    filter
        .map(|f| {
            let v: Json = serde_json::from_str(f)
                .map_err(|e| PyValueError::new_err(format!("Invalid filter JSON: {e}")))?;
            expr(&v)
        })
        .transpose()
}

/// A Weir table at a local path or in S3.
#[pyclass(frozen, module = "weir._weir")]
struct Table {
    inner: weir::Table,
}

#[pymethods]
impl Table {
    #[new]
    #[pyo3(signature = (path, storage_options=None, leases=true, consumer_id=None, lease_ttl_seconds=3600.0))]
    fn new(
        py: Python<'_>,
        path: String,
        storage_options: Option<BTreeMap<String, String>>,
        leases: bool,
        consumer_id: Option<String>,
        lease_ttl_seconds: f64,
    ) -> PyResult<Self> {
        if !lease_ttl_seconds.is_finite() || lease_ttl_seconds < 0.0 {
            return Err(PyValueError::new_err(format!(
                "Invalid lease_ttl_seconds {lease_ttl_seconds}: must be at least 1"
            )));
        }
        let options = storage_options.unwrap_or_default();
        let inner = py
            .detach(|| weir::Table::open_with_options(&path, &options))
            .and_then(|t| {
                t.with_leases(weir::LeaseOptions {
                    enabled: leases,
                    consumer_id,
                    ttl: Duration::from_secs_f64(lease_ttl_seconds),
                })
            })
            .map_err(to_py)?;
        Ok(Table { inner })
    }

    #[getter]
    fn location(&self) -> String {
        self.inner.location().to_string_lossy().into_owned()
    }

    fn latest_commit_id(&self) -> PyResult<i64> {
        self.inner.latest_commit_id().map_err(to_py)
    }

    /// [(commit id, timestamp millis, kind, schema id)], oldest first.
    fn snapshots(&self) -> PyResult<Vec<(i64, i64, String, i64)>> {
        Ok(self
            .inner
            .snapshots()
            .map_err(to_py)?
            .into_iter()
            .map(|s| {
                (
                    s.commit_id,
                    s.timestamp_millis,
                    format!("{:?}", s.kind).to_uppercase(),
                    s.schema_id,
                )
            })
            .collect())
    }

    /// (arrow schema capsule, primary key, partition keys, options, [(name, weir type)]).
    #[allow(clippy::type_complexity)]
    fn schema<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyCapsule>,
        Vec<String>,
        Vec<String>,
        Vec<(String, String)>,
        Vec<(String, String)>,
    )> {
        let s = self.inner.schema().map_err(to_py)?;
        let arrow = arrow_schema::Schema::new(
            s.columns
                .iter()
                .map(|c| c.arrow_field())
                .collect::<Vec<_>>(),
        );
        let ffi =
            FFI_ArrowSchema::try_from(&arrow).map_err(|e| WeirError::new_err(e.to_string()))?;
        let capsule = PyCapsule::new_with_value(py, ffi, c"arrow_schema")?;
        Ok((
            capsule,
            s.primary_key.clone(),
            s.partition_keys.clone(),
            s.options.clone().into_iter().collect(),
            s.columns
                .iter()
                .map(|c| (c.name.clone(), c.data_type.to_string()))
                .collect(),
        ))
    }

    /// A snapshot's rows.
    #[pyo3(signature = (columns=None, filter=None, snapshot_id=None, as_of_millis=None))]
    fn scan<'py>(
        &self,
        py: Python<'py>,
        columns: Option<Vec<String>>,
        filter: Option<&str>,
        snapshot_id: Option<i64>,
        as_of_millis: Option<i64>,
    ) -> PyResult<BatchStream> {
        let spec = match (snapshot_id, as_of_millis) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err(
                    "Choose one of snapshot_id and as_of, not both",
                ));
            }
            (Some(id), None) => SnapshotSpec::Id(id),
            (None, Some(t)) => SnapshotSpec::AsOf(t),
            (None, None) => SnapshotSpec::Latest,
        };
        let filter = parse_filter(filter)?;
        let scan = py
            .detach(|| self.inner.scan(columns.as_deref(), filter.as_ref(), spec))
            .map_err(to_py)?;
        Ok(stream(scan))
    }

    /// The changes in (from_commit, to_commit].
    #[pyo3(signature = (from_commit, to_commit, columns=None, filter=None))]
    fn changes<'py>(
        &self,
        py: Python<'py>,
        from_commit: i64,
        to_commit: i64,
        columns: Option<Vec<String>>,
        filter: Option<&str>,
    ) -> PyResult<BatchStream> {
        let filter = parse_filter(filter)?;
        let scan = py
            .detach(|| {
                self.inner
                    .changes(from_commit, to_commit, columns.as_deref(), filter.as_ref())
            })
            .map_err(to_py)?;
        Ok(stream(scan))
    }
}

#[pymodule]
fn _weir(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Table>()?;
    m.add_class::<BatchStream>()?;
    m.add("WeirError", m.py().get_type::<WeirError>())?;
    m.add("CorruptFileError", m.py().get_type::<CorruptFileError>())?;
    m.add(
        "SnapshotNotFoundError",
        m.py().get_type::<SnapshotNotFoundError>(),
    )?;
    Ok(())
}
