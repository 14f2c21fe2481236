package io.weir.options;

/** The period of a time partition: one partition per local day or per local hour. */
public enum TimeGranularity {
    /** One partition per local day: the day column holds the date. */
    DAY,
    /** One partition per local hour: the day column holds the date, the hour column 0 to 23. */
    HOUR
}
