package io.weir.bench.e2e;

import io.weir.bench.e2e.job.JobSettings;

import java.util.Locale;

/**
 * The file groups of one fan-out run of {@code --all --compaction on}: {@code partitions} × {@code
 * buckets}. Written {@code B} (B buckets, unpartitioned) or {@code PxB} (P partitions of B buckets
 * each) in {@code --fan-out}.
 */
record FanOut(int partitions, int buckets) {
    FanOut {
        if (partitions < 1 || buckets < 1) {
            throw new IllegalArgumentException(
                    "A fan-out run needs at least one partition and one bucket; got "
                            + partitions
                            + " x "
                            + buckets);
        }
    }

    /** {@code B} or {@code PxB}, as {@code --fan-out} takes them. */
    static FanOut parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int x = s.indexOf('x');
        try {
            if (x < 0) {
                return new FanOut(1, Integer.parseInt(s));
            }
            return new FanOut(
                    Integer.parseInt(s.substring(0, x)), Integer.parseInt(s.substring(x + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--fan-out takes bucket counts (100) or partitions x buckets (10x10),"
                            + " separated by commas; got '"
                            + text
                            + "'");
        }
    }

    /** The file groups of a run's table. */
    static FanOut of(JobSettings settings) {
        return new FanOut(settings.partitions(), settings.buckets());
    }

    long fileGroups() {
        return (long) partitions * buckets;
    }

    /** "1,000" for buckets alone, "1,000 (10 × 100)" for partitions of buckets. */
    String label() {
        String groups = String.format(Locale.ROOT, "%,d", fileGroups());
        return partitions == 1
                ? groups
                : String.format(Locale.ROOT, "%s (%,d × %,d)", groups, partitions, buckets);
    }
}
