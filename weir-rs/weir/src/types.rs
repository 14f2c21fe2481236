//! Weir's column types (docs/format.md §2.2) and their Arrow types (docs/readers.md).

use arrow_schema::{DataType as ArrowType, Field, TimeUnit};

/// The type family of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeRoot {
    Boolean,
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Float,
    Double,
    Decimal,
    Char,
    VarChar,
    Binary,
    VarBinary,
    Date,
    Time,
    Timestamp,
    TimestampLtz,
}

/// A column type: family, precision (or length) and scale, nullability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataType {
    pub root: TypeRoot,
    pub precision: u32,
    pub scale: u32,
    pub nullable: bool,
}

const MAX_LENGTH: u32 = i32::MAX as u32;

impl DataType {
    /// Parses the SQL form of a schema file (docs/format.md §2.2), e.g. `DECIMAL(10, 2) NOT NULL`.
    pub fn parse(sql: &str) -> Result<DataType, String> {
        let err = |why: &str| format!("Cannot parse data type: '{sql}': {why}");
        let upper = sql.to_uppercase();
        let mut s = upper.trim();
        let mut nullable = true;
        if let Some(rest) = s.strip_suffix("NULL") {
            let rest = rest.trim_end();
            if let Some(rest) = rest.strip_suffix("NOT")
                && rest.len() < s.len() - 4
                && rest.ends_with(char::is_whitespace)
            {
                nullable = false;
                s = rest.trim_end();
            }
        }
        let (name, args) = match s.find('(') {
            Some(open) => {
                let close = s.strip_suffix(')').ok_or_else(|| err("missing ')'"))?;
                let inner = &close[open + 1..];
                let mut nums = Vec::new();
                for part in inner.split(',') {
                    let n: u32 = part.trim().parse().map_err(|_| err("bad argument"))?;
                    nums.push(n);
                }
                if nums.is_empty() || nums.len() > 2 {
                    return Err(err("bad arguments"));
                }
                (s[..open].trim_end(), nums)
            }
            None => (s, Vec::new()),
        };
        let p = args.first().copied();
        let scale = args.get(1).copied();
        let no_args = |root: TypeRoot| -> Result<(TypeRoot, u32, u32), String> {
            if p.is_some() {
                Err(err(&format!("{name} takes no arguments")))
            } else {
                Ok((root, 0, 0))
            }
        };
        use TypeRoot::*;
        let (root, precision, sc) = match name {
            "BOOLEAN" => no_args(Boolean)?,
            "TINYINT" => no_args(TinyInt)?,
            "SMALLINT" => no_args(SmallInt)?,
            "INT" | "INTEGER" => no_args(Int)?,
            "BIGINT" => no_args(BigInt)?,
            "FLOAT" => no_args(Float)?,
            "DOUBLE" => no_args(Double)?,
            "DATE" => no_args(Date)?,
            "STRING" => (no_args(VarChar)?.0, MAX_LENGTH, 0),
            "BYTES" => (no_args(VarBinary)?.0, MAX_LENGTH, 0),
            "DECIMAL" | "NUMERIC" | "DEC" => (Decimal, p.unwrap_or(10), scale.unwrap_or(0)),
            "CHAR" => (Char, p.unwrap_or(1), 0),
            "VARCHAR" => (VarChar, p.unwrap_or(1), 0),
            "BINARY" => (Binary, p.unwrap_or(1), 0),
            "VARBINARY" => (VarBinary, p.unwrap_or(1), 0),
            "TIME" => (Time, p.unwrap_or(0), 0),
            "TIMESTAMP" => (Timestamp, p.unwrap_or(6), 0),
            "TIMESTAMP_LTZ" | "TIMESTAMP WITH LOCAL TIME ZONE" => (TimestampLtz, p.unwrap_or(6), 0),
            _ => return Err(err(&format!("unknown type {name}"))),
        };
        if scale.is_some() && root != Decimal {
            return Err(err(&format!("{name} takes no scale")));
        }
        match root {
            Decimal if !(1..=38).contains(&precision) || sc > precision => {
                return Err(err("precision must be 1..38 and scale 0..precision"));
            }
            Char | VarChar | Binary | VarBinary if !(1..=MAX_LENGTH).contains(&precision) => {
                return Err(err("length must be >= 1"));
            }
            Time | Timestamp | TimestampLtz if precision > 9 => {
                return Err(err("precision must be between 0 and 9"));
            }
            _ => {}
        }
        Ok(DataType {
            root,
            precision,
            scale: sc,
            nullable,
        })
    }

    /// Whether the value lives entirely in the row's 8-byte slot (docs/format.md §2.1).
    pub fn is_compact(&self) -> bool {
        match self.root {
            TypeRoot::Decimal => self.precision <= 18,
            TypeRoot::Timestamp | TypeRoot::TimestampLtz => self.precision <= 3,
            TypeRoot::Char | TypeRoot::VarChar | TypeRoot::Binary | TypeRoot::VarBinary => false,
            _ => true,
        }
    }

    /// The unit of a TIMESTAMP of this precision: ms (0..3), us (4..6) or ns (7..9).
    pub fn time_unit(&self) -> TimeUnit {
        match self.precision {
            0..=3 => TimeUnit::Millisecond,
            4..=6 => TimeUnit::Microsecond,
            _ => TimeUnit::Nanosecond,
        }
    }

    /// The Arrow type of a column of this type (docs/readers.md).
    pub fn arrow_type(&self) -> ArrowType {
        match self.root {
            TypeRoot::Boolean => ArrowType::Boolean,
            TypeRoot::TinyInt => ArrowType::Int8,
            TypeRoot::SmallInt => ArrowType::Int16,
            TypeRoot::Int => ArrowType::Int32,
            TypeRoot::BigInt => ArrowType::Int64,
            TypeRoot::Float => ArrowType::Float32,
            TypeRoot::Double => ArrowType::Float64,
            TypeRoot::Decimal => ArrowType::Decimal128(self.precision as u8, self.scale as i8),
            TypeRoot::Char | TypeRoot::VarChar => ArrowType::Utf8,
            TypeRoot::Binary | TypeRoot::VarBinary => ArrowType::Binary,
            TypeRoot::Date => ArrowType::Date32,
            TypeRoot::Time => ArrowType::Time32(TimeUnit::Millisecond),
            TypeRoot::Timestamp => ArrowType::Timestamp(self.time_unit(), None),
            TypeRoot::TimestampLtz => ArrowType::Timestamp(self.time_unit(), Some("UTC".into())),
        }
    }
}

impl std::fmt::Display for DataType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use TypeRoot::*;
        match self.root {
            VarChar if self.precision == MAX_LENGTH => write!(f, "STRING")?,
            VarBinary if self.precision == MAX_LENGTH => write!(f, "BYTES")?,
            VarChar => write!(f, "VARCHAR({})", self.precision)?,
            VarBinary => write!(f, "VARBINARY({})", self.precision)?,
            Char => write!(f, "CHAR({})", self.precision)?,
            Binary => write!(f, "BINARY({})", self.precision)?,
            Decimal => write!(f, "DECIMAL({}, {})", self.precision, self.scale)?,
            Time => write!(f, "TIME({})", self.precision)?,
            Timestamp => write!(f, "TIMESTAMP({})", self.precision)?,
            TimestampLtz => write!(f, "TIMESTAMP_LTZ({})", self.precision)?,
            Boolean => write!(f, "BOOLEAN")?,
            TinyInt => write!(f, "TINYINT")?,
            SmallInt => write!(f, "SMALLINT")?,
            Int => write!(f, "INT")?,
            BigInt => write!(f, "BIGINT")?,
            Float => write!(f, "FLOAT")?,
            Double => write!(f, "DOUBLE")?,
            Date => write!(f, "DATE")?,
        }
        if !self.nullable {
            write!(f, " NOT NULL")?;
        }
        Ok(())
    }
}

/// A column of a table schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub id: i32,
    pub name: String,
    pub data_type: DataType,
}

impl Column {
    /// The Arrow field; it carries the Weir field id as `PARQUET:field_id` metadata.
    pub fn arrow_field(&self) -> Field {
        Field::new(
            &self.name,
            self.data_type.arrow_type(),
            self.data_type.nullable,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_names() {
        for (sql, back) in [
            ("INT", "INT"),
            ("integer not null", "INT NOT NULL"),
            ("STRING", "STRING"),
            ("DECIMAL(10, 2) NOT NULL", "DECIMAL(10, 2) NOT NULL"),
            ("decimal", "DECIMAL(10, 0)"),
            ("TIMESTAMP", "TIMESTAMP(6)"),
            ("TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(6)"),
            ("TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)"),
            ("VARCHAR(5)", "VARCHAR(5)"),
            ("BYTES", "BYTES"),
            (" TIME(0) ", "TIME(0)"),
        ] {
            assert_eq!(DataType::parse(sql).unwrap().to_string(), back, "{sql}");
        }
        for bad in [
            "INT(3)",
            "FOO",
            "DECIMAL(39, 0)",
            "TIME(10)",
            "VARCHAR(2, 1)",
            "NOT NULL",
        ] {
            assert!(DataType::parse(bad).is_err(), "{bad}");
        }
    }
}
