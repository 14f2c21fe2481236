package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.weir.types.DataTypes.BIGINT;
import static io.weir.types.DataTypes.BOOLEAN;
import static io.weir.types.DataTypes.INT;
import static io.weir.types.DataTypes.STRING;
import static io.weir.types.DataTypes.VARBINARY;
import static org.assertj.core.api.Assertions.assertThat;

class BinaryRowWriterTest {

    /**
     * One writer reused for many rows leaves nothing of a row in the next: slots, null bits and the
     * padding after variable-length values are zero again (the padding is written before the value,
     * and values of every length up to 40 bytes follow each other in the same fields).
     */
    @Test
    void reusedWriterWritesWhatAFreshOneWrites() {
        RowType type =
                RowType.of(
                        "k",
                        BIGINT(),
                        "s",
                        STRING(),
                        "b",
                        VARBINARY(64),
                        "i",
                        INT(),
                        "f",
                        BOOLEAN(),
                        "t",
                        STRING());
        SplittableRandom random = new SplittableRandom(11);
        BinaryRowWriter reused = new BinaryRowWriter(type.size(), 8);
        for (int r = 0; r < 2_000; r++) {
            List<Object> values = randomValues(type, random);
            reused.reset();
            RowKind kind = RowKind.fromByteValue((byte) random.nextInt(4));
            reused.writeRowKind(kind);
            for (int i = 0; i < values.size(); i++) {
                reused.write(i, values.get(i), type.type(i));
            }
            BinaryRow expected = BinaryRowWriter.toRow(type, kind, values.toArray());
            assertThat(reused.complete()).as("row %s: %s", r, values).isEqualTo(expected);
        }
    }

    private static List<Object> randomValues(RowType type, SplittableRandom random) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            DataType t = type.type(i);
            if (random.nextInt(5) == 0) {
                values.add(null);
                continue;
            }
            byte[] bytes = new byte[random.nextInt(41)];
            for (int j = 0; j < bytes.length; j++) {
                bytes[j] = (byte) ('a' + random.nextInt(26));
            }
            values.add(
                    switch (t.root()) {
                        case BIGINT -> random.nextLong();
                        case INT -> random.nextInt();
                        case BOOLEAN -> random.nextBoolean();
                        case VARCHAR -> new String(bytes, StandardCharsets.UTF_8);
                        default -> bytes;
                    });
        }
        return values;
    }
}
