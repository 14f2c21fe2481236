//! Filters: simple predicates on columns, evaluated on rows and used to prune partitions and files
//! by their stored statistics (docs/format.md §5.4, §6.2).

use std::cmp::Ordering;

use arrow_array::builder::BooleanBuilder;
use arrow_array::{BooleanArray, RecordBatch};

use crate::error::{Error, Result};
use crate::metadata::{DataFile, TableSchema};
use crate::value::Value;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A literal as the caller gives it, converted to the column's type when the filter is bound.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string; for non-string columns it is read as the column's canonical text
    /// (docs/format.md §2.3), e.g. `'2024-11-20'` for a DATE or `'12.50'` for a DECIMAL.
    Str(String),
    Bytes(Vec<u8>),
}

/// A filter on columns by name. Comparisons with a null are unknown, and unknown rows are dropped
/// (SQL's three-valued logic).
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Cmp(String, Op, Literal),
    In(String, Vec<Literal>),
    IsNull(String),
    IsNotNull(String),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
}

/// A filter bound to column positions with literals of the columns' types.
#[derive(Debug, Clone)]
pub enum Bound {
    Cmp(usize, Op, Value),
    In(usize, Vec<Value>),
    IsNull(usize),
    IsNotNull(usize),
    And(Box<Bound>, Box<Bound>),
    Or(Box<Bound>, Box<Bound>),
    Not(Box<Bound>),
}

fn bind_literal(schema: &TableSchema, pos: usize, lit: &Literal) -> Result<Value> {
    let c = &schema.columns[pos];
    let t = &c.data_type;
    use crate::types::TypeRoot::*;
    let bad = || {
        Error::Invalid(format!(
            "Invalid filter: {lit:?} is not a value of column '{}' ({t})",
            c.name
        ))
    };
    Ok(match (t.root, lit) {
        (Boolean, Literal::Bool(b)) => Value::Bool(*b),
        (TinyInt | SmallInt | Int | BigInt, Literal::Int(i)) => Value::Int(*i),
        (Float | Double, Literal::Float(f)) => Value::Float(*f),
        (Float | Double, Literal::Int(i)) => Value::Float(*i as f64),
        (Decimal, Literal::Int(i)) => Value::Decimal(
            (*i as i128)
                .checked_mul(10i128.pow(t.scale))
                .ok_or_else(bad)?,
        ),
        (Char | VarChar, Literal::Str(s)) => Value::Str(s.clone()),
        (Binary | VarBinary, Literal::Bytes(b)) => Value::Bytes(b.clone()),
        (Date | Time | Timestamp | TimestampLtz, Literal::Int(i)) => Value::Int(*i),
        (_, Literal::Str(s)) => Value::from_text(s, t).map_err(|_| bad())?,
        _ => return Err(bad()),
    })
}

impl Expr {
    /// Binds names to positions of `schema`, naming an unknown column in the error.
    pub fn bind(&self, schema: &TableSchema) -> Result<Bound> {
        let pos = |name: &str| {
            schema.index_of(name).ok_or_else(|| {
                Error::Invalid(format!(
                    "Invalid filter: column '{name}' does not exist (columns: {})",
                    schema
                        .columns
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
        };
        Ok(match self {
            Expr::Cmp(c, op, lit) => {
                let p = pos(c)?;
                Bound::Cmp(p, *op, bind_literal(schema, p, lit)?)
            }
            Expr::In(c, lits) => {
                let p = pos(c)?;
                Bound::In(
                    p,
                    lits.iter()
                        .map(|l| bind_literal(schema, p, l))
                        .collect::<Result<_>>()?,
                )
            }
            Expr::IsNull(c) => Bound::IsNull(pos(c)?),
            Expr::IsNotNull(c) => Bound::IsNotNull(pos(c)?),
            Expr::And(a, b) => Bound::And(Box::new(a.bind(schema)?), Box::new(b.bind(schema)?)),
            Expr::Or(a, b) => Bound::Or(Box::new(a.bind(schema)?), Box::new(b.bind(schema)?)),
            Expr::Not(a) => Bound::Not(Box::new(a.bind(schema)?)),
        })
    }
}

/// SQL comparison of two non-null values: NaN compares unequal to everything (IEEE).
fn compare(op: Op, a: &Value, b: &Value) -> bool {
    if let (Value::Float(x), Value::Float(y)) = (a, b) {
        return match op {
            Op::Eq => x == y,
            Op::Ne => x != y,
            Op::Lt => x < y,
            Op::Le => x <= y,
            Op::Gt => x > y,
            Op::Ge => x >= y,
        };
    }
    let Some(c) = a.weir_cmp(b) else { return false };
    match op {
        Op::Eq => c == Ordering::Equal,
        Op::Ne => c != Ordering::Equal,
        Op::Lt => c == Ordering::Less,
        Op::Le => c != Ordering::Greater,
        Op::Gt => c == Ordering::Greater,
        Op::Ge => c != Ordering::Less,
    }
}

impl Bound {
    /// The columns the filter reads.
    pub fn columns(&self, out: &mut Vec<usize>) {
        match self {
            Bound::Cmp(p, _, _) | Bound::In(p, _) | Bound::IsNull(p) | Bound::IsNotNull(p) => {
                out.push(*p)
            }
            Bound::And(a, b) | Bound::Or(a, b) => {
                a.columns(out);
                b.columns(out);
            }
            Bound::Not(a) => a.columns(out),
        }
    }

    /// Three-valued evaluation on row `i`; `col(p)` is the value of column p (None for null).
    fn eval(&self, col: &dyn Fn(usize) -> Option<Value>) -> Option<bool> {
        match self {
            Bound::Cmp(p, op, v) => col(*p).map(|x| compare(*op, &x, v)),
            Bound::In(p, vs) => col(*p).map(|x| vs.iter().any(|v| compare(Op::Eq, &x, v))),
            Bound::IsNull(p) => Some(col(*p).is_none()),
            Bound::IsNotNull(p) => Some(col(*p).is_some()),
            Bound::And(a, b) => match (a.eval(col), b.eval(col)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            Bound::Or(a, b) => match (a.eval(col), b.eval(col)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            Bound::Not(a) => a.eval(col).map(|v| !v),
        }
    }

    /// Which rows of `batch` match; `index(p)` is the batch column of table column p.
    pub fn evaluate(&self, batch: &RecordBatch, index: &dyn Fn(usize) -> usize) -> BooleanArray {
        let mut b = BooleanBuilder::with_capacity(batch.num_rows());
        for i in 0..batch.num_rows() {
            let col = |p: usize| Value::at(batch.column(index(p)), i);
            b.append_value(self.eval(&col) == Some(true));
        }
        b.finish()
    }

    /// Whether rows with values in the given ranges might match. `range(p)` gives, for column
    /// p, (min, max, might hold nulls, might hold non-nulls), or None when nothing is known.
    pub fn might_match(&self, range: &dyn Fn(usize) -> Option<Range>) -> bool {
        match self {
            Bound::Cmp(p, op, v) => match range(*p) {
                None => true,
                Some(r) if !r.values => false,
                Some(Range {
                    min: Some(min),
                    max: Some(max),
                    ..
                }) => {
                    let lo = min.weir_cmp(v);
                    let hi = max.weir_cmp(v);
                    let (Some(lo), Some(hi)) = (lo, hi) else {
                        return true;
                    };
                    if matches!(v, Value::Float(f) if f.is_nan()) {
                        return *op == Op::Ne;
                    }
                    match op {
                        Op::Eq => lo != Ordering::Greater && hi != Ordering::Less,
                        Op::Ne => !(lo == Ordering::Equal && hi == Ordering::Equal),
                        Op::Lt => lo == Ordering::Less,
                        Op::Le => lo != Ordering::Greater,
                        Op::Gt => hi == Ordering::Greater,
                        Op::Ge => hi != Ordering::Less,
                    }
                }
                Some(_) => true,
            },
            Bound::In(p, vs) => vs
                .iter()
                .any(|v| Bound::Cmp(*p, Op::Eq, v.clone()).might_match(range)),
            Bound::IsNull(p) => range(*p).is_none_or(|r| r.nulls),
            Bound::IsNotNull(p) => range(*p).is_none_or(|r| r.values),
            Bound::And(a, b) => a.might_match(range) && b.might_match(range),
            Bound::Or(a, b) => a.might_match(range) || b.might_match(range),
            Bound::Not(_) => true,
        }
    }

    /// Whether a partition with these values (canonical texts) might hold matching rows.
    pub fn partition_might_match(
        &self,
        schema: &TableSchema,
        values: &[Option<String>],
    ) -> Result<bool> {
        let mut known: Vec<(usize, Option<Value>)> = Vec::new();
        for (k, text) in schema.partition_keys.iter().zip(values) {
            let p = schema.index_of(k).expect("checked at load");
            let v = match text {
                None => None,
                Some(t) => Some(
                    Value::from_text(t, &schema.columns[p].data_type).map_err(Error::Invalid)?,
                ),
            };
            known.push((p, v));
        }
        Ok(self.might_match(&|p| {
            known.iter().find(|(q, _)| *q == p).map(|(_, v)| Range {
                min: v.clone(),
                max: v.clone(),
                nulls: v.is_none(),
                values: v.is_some(),
            })
        }))
    }

    /// Whether a base file with these column statistics might hold matching rows.
    /// Whether the file's rows might match, by its statistics of the fields (ids) `sound` accepts
    /// (a file of another schema version: those whose order and texts a widening kept, §6.9).
    pub fn file_might_match(
        &self,
        schema: &TableSchema,
        file: &DataFile,
        sound: &dyn Fn(i32) -> bool,
    ) -> bool {
        self.might_match(&|p| {
            let c = &schema.columns[p];
            if !sound(c.id) {
                return None;
            }
            let s = file.column_stats.get(&c.id)?;
            let parse = |t: &Option<String>| {
                t.as_ref()
                    .and_then(|t| Value::from_text(t, &c.data_type).ok())
            };
            let (min, max) = (parse(&s.min), parse(&s.max));
            let values = s.null_count < file.record_count;
            if values && (min.is_none() || max.is_none()) {
                return None;
            }
            Some(Range {
                min,
                max,
                nulls: s.null_count > 0,
                values,
            })
        })
    }
}

/// What statistics say about a column of a file or partition.
#[derive(Debug, Clone)]
pub struct Range {
    pub min: Option<Value>,
    pub max: Option<Value>,
    pub nulls: bool,
    pub values: bool,
}
