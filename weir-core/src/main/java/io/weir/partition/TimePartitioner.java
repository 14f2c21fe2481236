package io.weir.partition;

import io.weir.Partition;
import io.weir.data.BinaryRow;
import io.weir.util.LittleEndian;

import java.time.Instant;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves the time partition of rows ({@link TimePartitioning}) with no allocation, no time-zone
 * lookup and no conversion per row: it caches the current <em>window</em>, a range {@code [start,
 * end)} of epoch millis in which the zone's offset is constant and every instant has the same
 * period, with that period's partition id and derived values. A row whose time falls in it costs
 * one read and one unsigned comparison. Only a time outside it looks further: first among recent
 * and prepared windows (a short array scan), and only then asks {@code java.time} for the zone's
 * offset and transitions to build the new window. Daylight-saving changes split a window at the
 * transition, so a period's local day may be 23 or 25 hours and an hour may occur twice; both
 * halves map to one partition.
 *
 * <p>The derived columns are written into the writer's copy of a row: by {@link #fill(int, byte[],
 * int)} when the flush encodes the rows of a partition (a table with only time partition keys), or
 * by {@link #patch} before the identity keys are resolved (a table with both).
 *
 * <p>With {@code partition.time.create-ahead} = N, entering a period also prepares the windows and
 * partitions of the next N periods, so crossing midnight (or the hour) costs a cache hit.
 *
 * <p>Not thread-safe: one per writer (or per Flink partitioner).
 */
public final class TimePartitioner {
    /** The period of a row whose time is null. */
    public static final long NULL_PERIOD = Long.MIN_VALUE;

    private final TimePartitioning spec;
    private final ZoneRules rules;
    private final boolean fixedOffset;
    private final int timePosition;
    private final boolean compactTime;
    private final int dayPosition;
    private final int hourPosition;
    // Byte offsets within a row, and null-bit masks, computed once: the per-row code does no
    // position arithmetic.
    private final int timeSlot;
    private final int timeNullByte;
    private final int timeNullMask;
    private final boolean timeNullable;
    private final int daySlot;
    private final int dayNullByte;
    private final byte dayNullClear;
    private final int hourSlot;
    private final int hourNullByte;
    private final byte hourNullClear;
    private final long periodMillis;
    private final int ahead;
    private final boolean assignsPartitions;

    // The current window: every instant in [start, start + width) has this period and partition
    // id; one unsigned comparison tests it. Empty at first.
    private long start;
    private long width;
    private long end = Long.MIN_VALUE;
    private long period;
    private long daySlotValue;
    private long hourSlotValue;
    private int id;

    // Recent and prepared windows, as a ring.
    private final long[] starts;
    private final long[] ends;
    private final long[] periods;
    private final int[] ids;
    private int windowCount;
    private int nextSlot;
    private long preparedEnd = Long.MIN_VALUE;
    private long preparedPeriod = Long.MIN_VALUE;

    // Filled by computeWindow.
    private long newStart;
    private long newEnd;
    private long newPeriod;

    private final List<Partition> partitions = new ArrayList<>();
    private long[] daySlotsById = new long[16];
    private long[] hourSlotsById = new long[16];
    private final Map<Long, Integer> idsByPeriod = new HashMap<>();
    private int nullId = -1;

    private byte[] scratch = new byte[0];
    private final BinaryRow scratchRow;

    /**
     * @param arity the number of fields of the rows
     */
    public TimePartitioner(TimePartitioning spec, int arity) {
        this.spec = spec;
        this.rules = spec.zone().getRules();
        this.fixedOffset = rules.isFixedOffset();
        this.timePosition = spec.timePosition();
        this.compactTime = spec.compactTime();
        this.dayPosition = spec.dayPosition();
        this.hourPosition = spec.hourPosition();
        this.periodMillis = spec.periodMillis();
        this.ahead = spec.createAhead();
        this.assignsPartitions = spec.derivesAllPartitionKeys();
        int nullBits = BinaryRow.nullBitsSizeInBytes(arity);
        this.timeSlot = nullBits + 8 * timePosition;
        this.timeNullByte = (timePosition + 8) >>> 3;
        this.timeNullMask = 1 << ((timePosition + 8) & 7);
        // A key column is never null here: the writer checked the key before.
        this.timeNullable = !spec.timeIsKey();
        this.daySlot = nullBits + 8 * dayPosition;
        this.dayNullByte = (dayPosition + 8) >>> 3;
        this.dayNullClear = (byte) ~(1 << ((dayPosition + 8) & 7));
        this.hourSlot = hourPosition < 0 ? -1 : nullBits + 8 * hourPosition;
        this.hourNullByte = (hourPosition + 8) >>> 3;
        this.hourNullClear = (byte) ~(1 << ((hourPosition + 8) & 7));
        int capacity = ahead + 8;
        this.starts = new long[capacity];
        this.ends = new long[capacity];
        this.periods = new long[capacity];
        this.ids = new int[capacity];
        this.scratchRow = new BinaryRow(arity);
    }

    /**
     * The partition id of the row's time period, for a table whose partition keys are all derived
     * ({@link TimePartitioning#derivesAllPartitionKeys()}); ids are small, dense, in the order
     * periods are first seen or prepared. Remembers the period for {@link #fill(BinaryRow)}.
     */
    public int resolve(BinaryRow row) {
        byte[] bytes = row.bytes();
        int offset = row.offset();
        if (timeNullable && (bytes[offset + timeNullByte] & timeNullMask) != 0) {
            return nullId >= 0 ? nullId : nullPartition();
        }
        long millis = millis(bytes, offset);
        if (Long.compareUnsigned(millis - start, width) >= 0) {
            enter(millis);
        }
        return id;
    }

    /** The period of the row's time, or {@link #NULL_PERIOD}. */
    public long period(BinaryRow row) {
        byte[] bytes = row.bytes();
        int offset = row.offset();
        if ((bytes[offset + timeNullByte] & timeNullMask) != 0) {
            return NULL_PERIOD;
        }
        long millis = millis(bytes, offset);
        if (Long.compareUnsigned(millis - start, width) >= 0) {
            enter(millis);
        }
        return period;
    }

    /**
     * Writes the derived columns of the row last passed to {@link #resolve} into {@code copy} (the
     * writer's copy of it), in place: the period's date and hour, or nulls for a null time.
     */
    public void fill(BinaryRow copy) {
        if (timeNullable && copy.isNullAt(timePosition)) {
            copy.setNullAt(dayPosition);
            if (hourPosition >= 0) {
                copy.setNullAt(hourPosition);
            }
            return;
        }
        // As BinaryRow.setInt: clear the null bit, write the slot (the int, then zeros).
        byte[] bytes = copy.bytes();
        int offset = copy.offset();
        bytes[offset + dayNullByte] &= dayNullClear;
        LittleEndian.putLong(bytes, offset + daySlot, daySlotValue);
        if (hourSlot >= 0) {
            bytes[offset + hourNullByte] &= hourNullClear;
            LittleEndian.putLong(bytes, offset + hourSlot, hourSlotValue);
        }
    }

    /**
     * Writes the derived columns of partition {@code partitionId} (an id of {@link #resolve}) into
     * a row, in place: the flush does this for each row of the partition it writes, just before
     * encoding it, so the append path only resolves the id.
     */
    public void fill(int partitionId, byte[] bytes, int offset) {
        if (partitionId == nullId) {
            scratchRow.pointTo(bytes, offset, BinaryRow.fixedPartSize(scratchRow.arity()));
            scratchRow.setNullAt(dayPosition);
            if (hourPosition >= 0) {
                scratchRow.setNullAt(hourPosition);
            }
            return;
        }
        bytes[offset + dayNullByte] &= dayNullClear;
        LittleEndian.putLong(bytes, offset + daySlot, daySlotsById[partitionId]);
        if (hourSlot >= 0) {
            bytes[offset + hourNullByte] &= hourNullClear;
            LittleEndian.putLong(bytes, offset + hourSlot, hourSlotsById[partitionId]);
        }
    }

    /**
     * A copy of the row with its derived columns filled, in a buffer of this partitioner that the
     * next call reuses: for tables that also have identity partition keys, whose partition the
     * writer resolves on the filled row. Allocates only to grow the buffer.
     */
    public BinaryRow patch(BinaryRow row) {
        resolve(row);
        int size = row.sizeInBytes();
        if (scratch.length < size) {
            scratch = new byte[Math.max(size, 2 * scratch.length)];
        }
        System.arraycopy(row.bytes(), row.offset(), scratch, 0, size);
        scratchRow.pointTo(scratch, 0, size);
        fill(scratchRow);
        return scratchRow;
    }

    /** The partition of an id returned by {@link #resolve}. */
    public Partition partition(int partitionId) {
        return partitions.get(partitionId);
    }

    /** The number of partitions with an id (including prepared ones). */
    public int size() {
        return partitions.size();
    }

    long windowStart() {
        return start;
    }

    long windowEnd() {
        return end;
    }

    private long millis(byte[] bytes, int offset) {
        long slot = LittleEndian.getLong(bytes, offset + timeSlot);
        return compactTime ? slot : LittleEndian.getLong(bytes, offset + (int) (slot >>> 32));
    }

    /** Makes the window holding {@code millis} current: a cached one, or a new one. */
    private void enter(long millis) {
        int slot = find(millis);
        if (slot < 0) {
            computeWindow(millis);
            slot = add(newStart, newEnd, newPeriod);
        }
        start = starts[slot];
        end = ends[slot];
        width = end - start;
        period = periods[slot];
        id = ids[slot];
        daySlotValue = Integer.toUnsignedLong((int) spec.epochDay(period));
        hourSlotValue = spec.hour(period);
        prepareAhead();
    }

    private int find(long millis) {
        for (int i = 0; i < windowCount; i++) {
            if (millis >= starts[i] && millis < ends[i]) {
                return i;
            }
        }
        return -1;
    }

    private int add(long windowStart, long windowEnd, long windowPeriod) {
        int slot = nextSlot;
        nextSlot = (nextSlot + 1) % starts.length;
        windowCount = Math.max(windowCount, nextSlot == 0 ? starts.length : nextSlot);
        starts[slot] = windowStart;
        ends[slot] = windowEnd;
        periods[slot] = windowPeriod;
        ids[slot] = assignsPartitions ? partitionId(windowPeriod) : -1;
        return slot;
    }

    /** Prepares the windows up to {@code ahead} periods after the current one. */
    private void prepareAhead() {
        if (ahead == 0) {
            return;
        }
        if (preparedEnd < end) {
            preparedEnd = end;
            preparedPeriod = period;
        }
        // Bounded: a period may take a few windows around offset changes.
        for (int i = 0; preparedPeriod < period + ahead && i < 2 * ahead + 4; i++) {
            int slot = find(preparedEnd);
            if (slot < 0) {
                computeWindow(preparedEnd);
                slot = add(newStart, newEnd, newPeriod);
            }
            preparedEnd = ends[slot];
            preparedPeriod = periods[slot];
        }
    }

    /**
     * The window of an instant: its local period at the zone's offset then, clipped to the range in
     * which that offset is in force (between the zone's transitions around it).
     */
    private void computeWindow(long millis) {
        Instant instant = Instant.ofEpochMilli(millis);
        long offset = rules.getOffset(instant).getTotalSeconds() * 1000L;
        long p = Math.floorDiv(millis + offset, periodMillis);
        long s = p * periodMillis - offset;
        long e = s + periodMillis;
        if (!fixedOffset) {
            // The latest transition at or before the instant (transitions are whole seconds).
            ZoneOffsetTransition before = rules.previousTransition(instant.plusMillis(1));
            if (before != null) {
                s = Math.max(s, before.toEpochSecond() * 1000L);
            }
            ZoneOffsetTransition after = rules.nextTransition(instant);
            if (after != null) {
                e = Math.min(e, after.toEpochSecond() * 1000L);
            }
        }
        newStart = s;
        newEnd = e;
        newPeriod = p;
    }

    private int partitionId(long windowPeriod) {
        Integer known = idsByPeriod.get(windowPeriod);
        if (known != null) {
            return known;
        }
        int newId = partitions.size();
        partitions.add(new Partition(Arrays.asList(spec.values(windowPeriod))));
        idsByPeriod.put(windowPeriod, newId);
        if (newId >= daySlotsById.length) {
            daySlotsById = Arrays.copyOf(daySlotsById, 2 * newId);
            hourSlotsById = Arrays.copyOf(hourSlotsById, 2 * newId);
        }
        daySlotsById[newId] = Integer.toUnsignedLong((int) spec.epochDay(windowPeriod));
        hourSlotsById[newId] = spec.hour(windowPeriod);
        return newId;
    }

    private int nullPartition() {
        if (assignsPartitions) {
            nullId = partitions.size();
            if (nullId >= daySlotsById.length) {
                daySlotsById = Arrays.copyOf(daySlotsById, 2 * nullId);
                hourSlotsById = Arrays.copyOf(hourSlotsById, 2 * nullId);
            }
            partitions.add(
                    new Partition(Arrays.asList(new String[spec.hourColumn() == null ? 1 : 2])));
        }
        return nullId;
    }
}
