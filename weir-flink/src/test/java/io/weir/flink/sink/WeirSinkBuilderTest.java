package io.weir.flink.sink;

import io.weir.Schema;
import io.weir.Tables;
import io.weir.exceptions.NoSuchTableException;
import io.weir.exceptions.ValidationException;
import io.weir.flink.FlinkTypes;
import io.weir.types.DataTypes;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The builder validates eagerly, with messages that name the problem. */
class WeirSinkBuilderTest {
    @TempDir Path dir;

    private String keyedTable() {
        return SinkTestTables.create(dir, SinkTestTables.keyedSchema(), 4).location();
    }

    @Test
    void needsAnExistingTable() {
        assertThatThrownBy(() -> WeirSink.builder().build())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("location");
        assertThatThrownBy(
                        () -> WeirSink.builder().location(dir.resolve("none").toString()).build())
                .isInstanceOf(NoSuchTableException.class);
    }

    @Test
    void defaultsToTheTablesRowType() {
        WeirSink sink = WeirSink.builder().location(keyedTable()).build();
        assertThat(sink.rowType()).isEqualTo(FlinkTypes.toFlink(SinkTestTables.keyedSchema()));
        assertThat(sink.isKeyed()).isTrue();
    }

    @Test
    void rowTypeMustMatchTheColumns() {
        String location = keyedTable();
        assertThatThrownBy(
                        () ->
                                WeirSink.builder()
                                        .location(location)
                                        .rowType(RowType.of(new BigIntType()))
                                        .build())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("it has 4 columns [id, dt, v, name]");
        RowType wrong =
                RowType.of(
                        new BigIntType(),
                        new VarCharType(VarCharType.MAX_LENGTH),
                        new IntType(),
                        new VarCharType(VarCharType.MAX_LENGTH));
        assertThatThrownBy(() -> WeirSink.builder().location(location).rowType(wrong).build())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("field 2 ('f2') is INT, column 'v' is BIGINT");
        // Nullability and names may differ.
        RowType renamed =
                RowType.of(
                        new BigIntType(),
                        new VarCharType(VarCharType.MAX_LENGTH),
                        new BigIntType(false),
                        new VarCharType(VarCharType.MAX_LENGTH));
        assertThat(WeirSink.builder().location(location).rowType(renamed).build().rowType())
                .isEqualTo(renamed);
    }

    @Test
    void staticPartitionsMustBePartitionKeysWithValidValues() {
        String location = keyedTable();
        assertThatThrownBy(
                        () ->
                                WeirSink.builder()
                                        .location(location)
                                        .overwrite(true)
                                        .staticPartition(Map.of("id", "1"))
                                        .build())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'id' is not a partition key (keys: [dt])");
        String intPartitioned =
                Tables.create(
                                dir.resolve("p").toString(),
                                Schema.builder()
                                        .column("p", DataTypes.INT())
                                        .column("v", DataTypes.BIGINT())
                                        .partitionKeys("p")
                                        .build(),
                                Map.of())
                        .location();
        assertThatThrownBy(
                        () ->
                                WeirSink.builder()
                                        .location(intPartitioned)
                                        .overwrite(true)
                                        .staticPartition(Map.of("p", "x1"))
                                        .build())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Cannot write static partition p='x1'");
    }

    @Test
    void overwriteNeedsBatchExecution() {
        WeirSink sink = WeirSink.builder().location(keyedTable()).overwrite(true).build();
        assertThatThrownBy(() -> sink.addPreWriteTopology(input(sink.inputType(), false)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("in STREAMING execution mode");
        assertThat(sink.addPreWriteTopology(input(sink.inputType(), true))).isNotNull();
    }

    @Test
    void inputMustUseFlinksRowSerializer() {
        WeirSink sink = WeirSink.builder().location(keyedTable()).build();
        assertThatThrownBy(
                        () ->
                                sink.addPreWriteTopology(
                                        input(TypeInformation.of(RowData.class), false)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("it must be InternalTypeInfo.of(rowType)");
    }

    private static DataStream<RowData> input(TypeInformation<RowData> type, boolean batch) {
        Configuration conf = new Configuration();
        conf.set(
                ExecutionOptions.RUNTIME_MODE,
                batch ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING);
        return StreamExecutionEnvironment.getExecutionEnvironment(conf)
                .fromSource(new NumberSequenceSource(0, 1), WatermarkStrategy.noWatermarks(), "s")
                .map(seq -> (RowData) null, type);
    }
}
