package io.weir.flink.compaction;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A file group whose rewrite keeps failing surfaces as an error naming the group and the cause, and
 * in the failed-rounds and consecutive-failures statistics (metrics), not only as a warning.
 */
class TableMaintainerFailureTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "v", DataTypes.STRING());

    @TempDir Path dir;

    @Test
    void aFileGroupThatKeepsFailingIsAnErrorAndCounted() throws Exception {
        Table table =
                Tables.create(
                        dir.toString(),
                        new Schema(TYPE, List.of("id"), List.of()),
                        Map.of("bucket", "1", "compaction.max-log-files", "2"));
        DataFile log = null;
        for (int c = 0; c < 2; c++) {
            try (TableWrite write = table.newWrite().create()) {
                write.write(BinaryRowWriter.toRow(TYPE, (long) c, "v" + c));
                List<DataFile> files = write.prepareCommit();
                log = files.get(0);
                table.newAppend().addFiles(files).commit();
            }
        }
        // The group's newest log is unreadable: every rewrite of the group fails.
        Path logPath = dir.resolve(log.path());
        byte[] logBytes = Files.readAllBytes(logPath);
        Files.delete(logPath);

        List<String> errors = new CopyOnWriteArrayList<>();
        // the test configuration may switch logging off: let this logger's events through
        Configurator.setLevel(TableMaintainer.class.getName(), Level.WARN);
        Logger logger = (Logger) LogManager.getLogger(TableMaintainer.class);
        Appender appender =
                new AbstractAppender("errors", null, null, true, Property.EMPTY_ARRAY) {
                    @Override
                    public void append(LogEvent event) {
                        if (event.getLevel() == Level.ERROR) {
                            errors.add(event.getMessage().getFormattedMessage());
                        }
                    }
                };
        appender.start();
        logger.addAppender(appender);
        TableMaintainer maintainer = new TableMaintainer(() -> Tables.load(dir.toString()), null);
        try {
            runRound(maintainer);
            assertThat(maintainer.stats().failedRounds()).isEqualTo(1);
            assertThat(maintainer.stats().consecutiveFailures()).isEqualTo(1);
            Thread.sleep(1_100); // the first back-off
            runRound(maintainer);
            assertThat(maintainer.stats().failedRounds()).isEqualTo(2);
            assertThat(maintainer.stats().consecutiveFailures()).isEqualTo(2);

            // Once the group can be rewritten again, the next round succeeds and resets the run.
            Files.write(logPath, logBytes);
            Thread.sleep(2_100); // the second back-off
            runRound(maintainer);
        } finally {
            logger.removeAppender(appender);
            maintainer.close();
        }
        assertThat(maintainer.stats().failedRounds()).isEqualTo(2);
        assertThat(maintainer.stats().consecutiveFailures()).isZero();
        assertThat(maintainer.stats().compactions()).isEqualTo(1);
        assertThat(errors).hasSize(2);
        assertThat(errors.get(1))
                .startsWith(
                        "Compaction of table "
                                + dir
                                + " failed on file group []/bucket-0 (2 rounds in a row):")
                .contains(log.path() + " of file group []/bucket-0 is missing");
    }

    private static void runRound(TableMaintainer maintainer) throws InterruptedException {
        maintainer.onCommitted();
        long deadline = System.currentTimeMillis() + 60_000;
        while (maintainer.isBusy() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(maintainer.isBusy()).isFalse();
    }
}
