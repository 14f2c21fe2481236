//! The merge engines of keyed tables (docs/merge-engines.md, docs/format.md §7.1): the table
//! options that choose and configure one, checked as a writer checks them.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::metadata::TableSchema;
use crate::types::TypeRoot;

/// An aggregate function of the `aggregation` engine (`fields.<field>.aggregate-function`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggFn {
    Sum,
    Product,
    Count,
    Min,
    Max,
    LastValue,
    LastNonNullValue,
    FirstValue,
    FirstNonNullValue,
    BoolAnd,
    BoolOr,
    Listagg,
}

impl AggFn {
    /// Parses a function name: case-insensitive, `_` or `-` between words.
    fn parse(name: &str) -> Option<AggFn> {
        Some(match name.to_ascii_lowercase().replace('-', "_").as_str() {
            "sum" => AggFn::Sum,
            "product" => AggFn::Product,
            "count" => AggFn::Count,
            "min" => AggFn::Min,
            "max" => AggFn::Max,
            "last_value" => AggFn::LastValue,
            "last_non_null_value" => AggFn::LastNonNullValue,
            "first_value" => AggFn::FirstValue,
            "first_non_null_value" => AggFn::FirstNonNullValue,
            "bool_and" => AggFn::BoolAnd,
            "bool_or" => AggFn::BoolOr,
            "listagg" => AggFn::Listagg,
            _ => return None,
        })
    }

    /// What the column's type must be, or None if `root` fits.
    fn needs(self, root: TypeRoot) -> Option<&'static str> {
        use TypeRoot::*;
        let numeric = matches!(
            root,
            TinyInt | SmallInt | Int | BigInt | Float | Double | Decimal
        );
        match self {
            AggFn::Sum | AggFn::Product => (!numeric).then_some("a numeric column"),
            AggFn::Count => (!matches!(root, Int | BigInt)).then_some("an INT or BIGINT column"),
            AggFn::BoolAnd | AggFn::BoolOr => (root != Boolean).then_some("a BOOLEAN column"),
            AggFn::Listagg => {
                (!matches!(root, Char | VarChar)).then_some("a STRING (VARCHAR or CHAR) column")
            }
            AggFn::Min | AggFn::Max => (root == Boolean).then_some("a comparable column"),
            _ => None,
        }
    }
}

/// A `partial-update` sequence group, by table positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceGroup {
    /// The sequence fields, compared in this order.
    pub sequence: Vec<usize>,
    /// The fields they order (not the sequence fields).
    pub fields: Vec<usize>,
}

/// How the records of one key fold into its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engine {
    /// The last record, or the one with the greatest `sequence.field` (a table position).
    Deduplicate { sequence: Option<usize> },
    /// The first record.
    FirstRow,
    /// Non-null values overwrite, by sequence group.
    PartialUpdate { groups: Vec<SequenceGroup> },
    /// Every non-key column (by table position) folded by its function and `listagg` delimiter;
    /// None at key positions.
    Aggregation {
        functions: Vec<Option<(AggFn, String)>>,
    },
}

const ENGINES: &str = "'deduplicate', 'first-row', 'partial-update', 'aggregation'";
const SUFFIXES: [&str; 4] = [
    "aggregate-function",
    "ignore-retract",
    "list-agg-delimiter",
    "sequence-group",
];

impl Engine {
    /// The engine of a keyed table, from its options; an invalid combination is an error naming
    /// the option, as the writer's check at `CREATE TABLE` words it.
    pub fn of(schema: &TableSchema) -> Result<Engine> {
        let err = |m: String| Error::Invalid(format!("Invalid table options: {m}"));
        // Option values are read trimmed, as the Java side reads them.
        let option = |key: &str| schema.options.get(key).map(|v| v.trim());
        let raw = option("merge-engine").unwrap_or("deduplicate");
        let engine = raw.to_ascii_lowercase().replace('_', "-");
        if !matches!(
            engine.as_str(),
            "deduplicate" | "first-row" | "partial-update" | "aggregation"
        ) {
            return Err(err(format!(
                "option 'merge-engine' = '{raw}' is not one of {ENGINES}"
            )));
        }
        let sequence = match option("sequence.field") {
            None => None,
            Some(name) => Some(schema.index_of(name).ok_or_else(|| {
                err(format!(
                    "option 'sequence.field': column '{name}' does not exist (columns: {})",
                    names(schema)
                ))
            })?),
        };
        if engine != "deduplicate" && sequence.is_some() {
            return Err(err(format!(
                "'sequence.field' works with merge-engine 'deduplicate' only, not '{engine}'"
            )));
        }
        // fields.<field>.<suffix>, grouped by suffix; each only with its engine.
        let mut fields: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
        for (key, value) in &schema.options {
            let Some(rest) = key.strip_prefix("fields.") else {
                continue;
            };
            let Some(dot) = rest.rfind('.').filter(|&d| d > 0) else {
                continue;
            };
            let suffix = &rest[dot + 1..];
            if let Some(s) = SUFFIXES.iter().find(|s| **s == suffix) {
                let required = if *s == "sequence-group" {
                    "partial-update"
                } else {
                    "aggregation"
                };
                if engine != required {
                    return Err(err(format!(
                        "option '{key}' works with merge-engine '{required}' only, not '{engine}'"
                    )));
                }
                fields
                    .entry(s)
                    .or_default()
                    .push((&rest[..dot], value.trim()));
            }
        }
        let field = |suffix: &str| fields.get(suffix).cloned().unwrap_or_default();
        let keys = schema.key_positions();
        Ok(match engine.as_str() {
            "deduplicate" => Engine::Deduplicate { sequence },
            "first-row" => Engine::FirstRow,
            "partial-update" => {
                let mut owner: Vec<Option<usize>> = vec![None; schema.columns.len()];
                let mut groups = Vec::new();
                for (seq, members) in field("sequence-group") {
                    let key = format!("fields.{seq}.sequence-group");
                    let sequence = positions(schema, &key, seq)?;
                    let members = positions(schema, &key, members)?;
                    for &p in sequence.iter().chain(&members) {
                        let name = &schema.columns[p].name;
                        if keys.contains(&p) {
                            return Err(err(format!(
                                "option '{key}' names primary key column '{name}'; a sequence group holds non-key columns"
                            )));
                        }
                        if owner[p].is_some_and(|g| g != groups.len()) {
                            return Err(err(format!(
                                "option '{key}': column '{name}' is already in another sequence group"
                            )));
                        }
                        owner[p] = Some(groups.len());
                    }
                    let fields = members
                        .into_iter()
                        .filter(|p| !sequence.contains(p))
                        .collect();
                    groups.push(SequenceGroup { sequence, fields });
                }
                Engine::PartialUpdate { groups }
            }
            _ => {
                let mut functions: Vec<Option<(AggFn, String)>> = (0..schema.columns.len())
                    .map(|p| (!keys.contains(&p)).then(|| (AggFn::LastNonNullValue, ",".into())))
                    .collect();
                for suffix in SUFFIXES {
                    for (name, _) in field(suffix) {
                        if schema.index_of(name).is_none() {
                            return Err(err(format!(
                                "option 'fields.{name}.*' names column '{name}', which does not exist (columns: {})",
                                names(schema)
                            )));
                        }
                    }
                }
                for (name, f) in field("aggregate-function") {
                    let p = schema.index_of(name).expect("checked");
                    let function = AggFn::parse(f).ok_or_else(|| {
                        err(format!(
                            "option 'fields.{name}.aggregate-function' = '{f}' is not an aggregate function (sum, product, count, min, max, last_value, last_non_null_value, first_value, first_non_null_value, bool_and, bool_or, listagg)"
                        ))
                    })?;
                    let column = &schema.columns[p];
                    let Some(slot) = functions[p].as_mut() else {
                        return Err(err(format!(
                            "option 'fields.{name}.aggregate-function': '{name}' is a primary key column, which is not aggregated"
                        )));
                    };
                    if let Some(needs) = function.needs(column.data_type.root) {
                        return Err(err(format!(
                            "option 'fields.{name}.aggregate-function': '{f}' needs {needs}; '{name}' is {}",
                            column.data_type
                        )));
                    }
                    slot.0 = function;
                }
                for (name, d) in field("list-agg-delimiter") {
                    if let Some(slot) = functions[schema.index_of(name).expect("checked")].as_mut()
                    {
                        slot.1 = d.to_string();
                    }
                }
                Engine::Aggregation { functions }
            }
        })
    }

    /// Columns (table positions) the fold of the columns `needed` also reads: the sequence field,
    /// or the sequence fields of the groups of needed columns.
    pub fn extra_columns(&self, needed: &[usize]) -> Vec<usize> {
        match self {
            Engine::Deduplicate { sequence } => sequence.iter().copied().collect(),
            Engine::PartialUpdate { groups } => groups
                .iter()
                .filter(|g| {
                    g.fields
                        .iter()
                        .chain(&g.sequence)
                        .any(|p| needed.contains(p))
                })
                .flat_map(|g| g.sequence.iter().copied())
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn names(schema: &TableSchema) -> String {
    schema
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The positions of comma-separated column names.
fn positions(schema: &TableSchema, key: &str, list: &str) -> Result<Vec<usize>> {
    list.split(',')
        .map(|n| {
            let n = n.trim();
            schema.index_of(n).ok_or_else(|| {
                Error::Invalid(format!(
                    "Invalid table options: option '{key}' names column '{n}', which does not exist (columns: {})",
                    names(schema)
                ))
            })
        })
        .collect()
}

/// How one column of a `partial-update` or `aggregation` table folds (columns of a decoded batch).
#[derive(Debug, Clone)]
pub enum ColumnFold {
    /// The key's last record's value (key columns).
    Last,
    /// The last non-null value of a record that is not a retraction (`partial-update` outside
    /// sequence groups).
    LastNonNullInsert,
    /// A field of sequence group `group`: the value of the group's last taker (below), or null if
    /// none or the taker is a retraction and the field is not a sequence field.
    Group { group: usize, sequence: bool },
    /// An aggregate function and its `listagg` delimiter.
    Agg(AggFn, String),
}

/// An engine bound to the columns of a decoded batch.
#[derive(Debug, Clone)]
pub enum Fold {
    /// The winner by the sequence column, or the last record.
    Winner(Option<usize>),
    /// The first record.
    First,
    /// Every key stays; each column folds by itself; `groups` are the sequence columns of each
    /// sequence group.
    Columns {
        columns: Vec<ColumnFold>,
        groups: Vec<Vec<usize>>,
    },
}

impl Engine {
    /// The fold of a batch holding the table columns `needed` (which hold `extra_columns`).
    pub fn bind(&self, needed: &[usize], key: &[usize]) -> Fold {
        let index = |p: usize| needed.iter().position(|&q| q == p);
        match self {
            Engine::Deduplicate { sequence } => Fold::Winner(sequence.and_then(index)),
            Engine::FirstRow => Fold::First,
            Engine::PartialUpdate { groups } => {
                let mut bound = Vec::new();
                let columns = needed
                    .iter()
                    .map(|p| {
                        if key.contains(p) {
                            return ColumnFold::Last;
                        }
                        for g in groups {
                            let sequence = g.sequence.contains(p);
                            if sequence || g.fields.contains(p) {
                                let seq: Vec<usize> = g
                                    .sequence
                                    .iter()
                                    .map(|&s| index(s).expect("extra"))
                                    .collect();
                                let group = match bound.iter().position(|b| *b == seq) {
                                    Some(i) => i,
                                    None => {
                                        bound.push(seq);
                                        bound.len() - 1
                                    }
                                };
                                return ColumnFold::Group { group, sequence };
                            }
                        }
                        ColumnFold::LastNonNullInsert
                    })
                    .collect();
                Fold::Columns {
                    columns,
                    groups: bound,
                }
            }
            Engine::Aggregation { functions } => Fold::Columns {
                columns: needed
                    .iter()
                    .map(|&p| match &functions[p] {
                        None => ColumnFold::Last,
                        Some((f, d)) => ColumnFold::Agg(*f, d.clone()),
                    })
                    .collect(),
                groups: Vec::new(),
            },
        }
    }
}
