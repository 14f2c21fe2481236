package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Identity partitions on several columns of different types (STRING with characters that paths
 * escape, DATE, INT, DECIMAL; nulls where the table allows them): rows land in the directory of
 * their values, and filters on any partition column or combination plan exactly the partitions
 * whose values pass (the files of the others are skipped), with results equal to a model.
 */
class IdentityPartitionsTest {
    private static final RowType KEYED =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "region", DataTypes.STRING(),
                    "day", DataTypes.DATE(),
                    "tier", DataTypes.INT(),
                    "v", DataTypes.BIGINT());
    private static final RowType APPEND =
            RowType.of(
                    "region", DataTypes.STRING(),
                    "day", DataTypes.DATE(),
                    "tier", DataTypes.INT(),
                    "price", DataTypes.DECIMAL(6, 2),
                    "n", DataTypes.BIGINT());
    private static final String[] REGIONS = {"eu/west", "us=east", "ap south%", "sa"};
    private static final List<String> KEYS = List.of("region", "day", "tier");

    @TempDir Path dir;

    @Test
    void keyedTableOnThreePartitionColumnsPrunesExactly() {
        Table table =
                Tables.create(
                        dir.resolve("keyed").toString(),
                        new Schema(KEYED, List.of("id", "region", "day", "tier"), KEYS),
                        Map.of("bucket", "2"));
        Map<List<Object>, List<Object>> model = new HashMap<>();
        Random random = new Random(11);
        for (int c = 0; c < 5; c++) {
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < 800; i++) {
                    long id = random.nextInt(100);
                    String region = REGIONS[random.nextInt(REGIONS.length)];
                    int day = (int) LocalDate.parse("2024-06-01").toEpochDay() + random.nextInt(4);
                    int tier = random.nextInt(3) - 1;
                    List<Object> key = List.of(id, region, day, tier);
                    if (random.nextInt(6) == 0) {
                        write.write(
                                BinaryRowWriter.toRow(
                                        KEYED, RowKind.DELETE, id, region, day, tier, null));
                        model.remove(key);
                    } else {
                        long v = random.nextLong();
                        write.write(BinaryRowWriter.toRow(KEYED, id, region, day, tier, v));
                        model.put(key, List.of(id, region, day, tier, v));
                    }
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
            if (c == 2) {
                table.newCompaction().full().execute();
            }
        }
        // Each file lies in the directory of its partition's values, escaped.
        for (DataFile f : table.currentSnapshot().files()) {
            assertThat(f.path()).startsWith(f.partition().path(KEYS) + "/bucket-");
            assertThat(Files.exists(Path.of(table.location(), f.path()))).isTrue();
        }
        assertThat(table.currentSnapshot().files())
                .anyMatch(f -> f.path().startsWith("region=eu%2Fwest/day=2024-06-0"));
        int day2 = (int) LocalDate.parse("2024-06-02").toEpochDay();
        List<Case> cases =
                List.of(
                        new Case(
                                Expressions.equal("region", "us=east"),
                                r -> r.get(1).equals("us=east")),
                        new Case(
                                Expressions.equal("day", "2024-06-02"), r -> r.get(2).equals(day2)),
                        new Case(Expressions.lessThan("tier", 0), r -> (Integer) r.get(3) < 0),
                        new Case(
                                Expressions.and(
                                        Expressions.in("region", "eu/west", "sa"),
                                        Expressions.greaterThanOrEqual("day", "2024-06-03"),
                                        Expressions.notEqual("tier", 1)),
                                r ->
                                        Set.of("eu/west", "sa").contains(r.get(1))
                                                && (Integer) r.get(2) >= day2 + 1
                                                && !r.get(3).equals(1)),
                        new Case(
                                Expressions.or(
                                        Expressions.equal("tier", 1),
                                        Expressions.startsWith("region", "ap")),
                                r -> r.get(3).equals(1) || ((String) r.get(1)).startsWith("ap")),
                        new Case(
                                Expressions.not(Expressions.equal("region", "sa")),
                                r -> !r.get(1).equals("sa")));
        for (Case c : cases) {
            check(table, KEYED, c, model.values().stream().toList());
        }
    }

    @Test
    void appendOnlyTableWithNullsAndDecimalsPrunesExactly() {
        List<String> keys = List.of("region", "day", "tier", "price");
        Table table =
                Tables.create(
                        dir.resolve("append").toString(),
                        new Schema(APPEND, List.of(), keys),
                        Map.of("bucket", "1"));
        List<List<Object>> model = new ArrayList<>();
        Random random = new Random(5);
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 3000; i++) {
                String region = random.nextInt(5) == 0 ? null : REGIONS[random.nextInt(4)];
                Integer day =
                        random.nextInt(7) == 0
                                ? null
                                : (int) LocalDate.parse("2024-06-01").toEpochDay()
                                        + random.nextInt(3);
                int tier = random.nextInt(2);
                BigDecimal price = new BigDecimal(random.nextInt(3) * 50).movePointLeft(2);
                long n = random.nextLong();
                write.write(BinaryRowWriter.toRow(APPEND, region, day, tier, price, n));
                model.add(Arrays.asList(region, day, tier, price.setScale(2), n));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        assertThat(table.currentSnapshot().files())
                .anyMatch(f -> f.path().startsWith("region=__DEFAULT_PARTITION__/"))
                .anyMatch(f -> f.path().contains("/day=__DEFAULT_PARTITION__/"))
                .anyMatch(f -> f.path().contains("/price=0.50/"));
        int day1 = (int) LocalDate.parse("2024-06-01").toEpochDay();
        List<Case> cases =
                List.of(
                        new Case(Expressions.isNull("region"), r -> r.get(0) == null),
                        new Case(
                                Expressions.and(
                                        Expressions.notNull("day"),
                                        Expressions.equal("price", new BigDecimal("1.00"))),
                                r -> r.get(1) != null && r.get(3).equals(new BigDecimal("1.00"))),
                        new Case(
                                Expressions.and(
                                        Expressions.equal("day", "2024-06-01"),
                                        Expressions.equal("tier", 1),
                                        Expressions.in("region", "sa", "us=east")),
                                r ->
                                        Objects.equals(r.get(1), day1)
                                                && r.get(2).equals(1)
                                                && r.get(0) != null
                                                && Set.of("sa", "us=east").contains(r.get(0))),
                        new Case(
                                Expressions.greaterThan("price", new BigDecimal("0.25")),
                                r ->
                                        ((BigDecimal) r.get(3)).compareTo(new BigDecimal("0.25"))
                                                > 0));
        for (Case c : cases) {
            check(table, APPEND, c, model);
        }
    }

    record Case(Expression filter, Predicate<List<Object>> model) {}

    /**
     * The scan plans exactly the file groups of the partitions with a matching row (identity values
     * decide exactly), skips every other file, and returns the model's rows.
     */
    private static void check(Table table, RowType type, Case c, List<List<Object>> rows) {
        List<String> keys = table.schema().partitionKeys();
        int[] positions = table.schema().partitionKeyPositions();
        Set<Partition> expected = new TreeSet<>();
        List<String> expectedRows = new ArrayList<>();
        for (List<Object> r : rows) {
            if (c.model().test(r)) {
                expectedRows.add(r.toString());
            }
        }
        Set<Partition> all = new TreeSet<>();
        table.currentSnapshot().files().forEach(f -> all.add(f.partition()));
        for (Partition p : all) {
            // The filters are on partition columns only: a partition's values decide.
            List<Object> probe = new ArrayList<>(java.util.Collections.nCopies(type.size(), null));
            for (int i = 0; i < keys.size(); i++) {
                probe.set(
                        positions[i],
                        io.weir.data.ValueStrings.fromText(
                                p.values().get(i), type.type(positions[i])));
            }
            if (c.model().test(probe)) {
                expected.add(p);
            }
        }
        List<ScanTask> tasks = table.newScan().filter(c.filter()).plan();
        Set<Partition> planned = new TreeSet<>();
        tasks.forEach(t -> planned.add(t.fileGroup().partition()));
        assertThat(planned).as("partitions planned for %s", c.filter()).isEqualTo(expected);
        int filesPlanned = tasks.stream().mapToInt(t -> t.files().size()).sum();
        int filesExpected =
                (int)
                        table.currentSnapshot().files().stream()
                                .filter(f -> expected.contains(f.partition()))
                                .count();
        assertThat(filesPlanned).as("files planned for %s", c.filter()).isEqualTo(filesExpected);
        assertThat(filesPlanned)
                .as("files skipped for %s", c.filter())
                .isLessThan(table.currentSnapshot().files().size());
        List<String> actual = new ArrayList<>();
        Rows.readAll(table.newScan().filter(c.filter()).rows(), type, false)
                .forEach(r -> actual.add(r.toString()));
        expectedRows.sort(null);
        actual.sort(null);
        assertThat(actual).as("rows of %s", c.filter()).isEqualTo(expectedRows);
    }
}
