package io.weir.flink.table;

import io.weir.exceptions.ValidationException;
import io.weir.flink.source.StartMode;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WeirReadOptionsTest {
    @Test
    void parsesTheStartModesByTheirOptionValues() {
        for (StartMode mode : StartMode.values()) {
            Configuration conf = Configuration.fromMap(Map.of("scan.mode", mode.toString()));
            assertThat(conf.get(WeirReadOptions.SCAN_MODE)).isEqualTo(mode);
        }
        assertThat(WeirReadOptions.startMode(Map.of("scan.mode", "from-snapshot")))
                .isEqualTo(StartMode.FROM_SNAPSHOT);
        assertThat(WeirReadOptions.startMode(Map.of())).isEqualTo(StartMode.FULL);
        assertThat(
                        Configuration.fromMap(Map.of("scan.discovery-interval", "250 ms"))
                                .get(WeirReadOptions.SCAN_DISCOVERY_INTERVAL))
                .isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void parsesTimestamps() {
        ZoneId zone = ZoneId.of("Europe/Amsterdam");
        long expected =
                LocalDateTime.of(2024, 5, 1, 10, 0, 0, 123_000_000)
                        .atZone(zone)
                        .toInstant()
                        .toEpochMilli();
        assertThat(WeirReadOptions.parseTimestamp("2024-05-01 10:00:00.123", zone))
                .isEqualTo(expected);
        assertThat(WeirReadOptions.parseTimestamp("2024-05-01T10:00:00.123", zone))
                .isEqualTo(expected);
        assertThat(WeirReadOptions.parseTimestamp(String.valueOf(expected), zone))
                .isEqualTo(expected);
        long utc = LocalDateTime.of(2024, 5, 1, 10, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
        assertThat(WeirReadOptions.parseTimestamp("2024-05-01T10:00:00Z", zone)).isEqualTo(utc);
        assertThat(WeirReadOptions.parseTimestamp("2024-05-01T12:00:00+02:00", zone))
                .isEqualTo(utc);
        assertThat(WeirReadOptions.parseTimestamp("2024-05-01", ZoneOffset.UTC))
                .isEqualTo(utc - 10 * 3600_000L);
        assertThatThrownBy(() -> WeirReadOptions.parseTimestamp("yesterday", zone))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("scan.timestamp");
    }

    @Test
    void parsesChangeRanges() {
        assertThat(WeirReadOptions.parseBetween("5,9")).containsExactly(5, 9);
        assertThat(WeirReadOptions.parseBetween(" 0 , 12 ")).containsExactly(0, 12);
        for (String bad : new String[] {"5", "5,", "a,b", "1,2,3"}) {
            assertThatThrownBy(() -> WeirReadOptions.parseBetween(bad))
                    .as(bad)
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("scan.incremental.between");
        }
    }

    @Test
    void listsEveryOption() {
        assertThat(WeirReadOptions.options())
                .extracting(o -> o.key())
                .containsExactly(
                        "scan.mode",
                        "scan.snapshot-id",
                        "scan.tag-name",
                        "scan.timestamp",
                        "scan.incremental.between",
                        "scan.discovery-interval",
                        "scan.consumer-id",
                        "scan.lease.ttl",
                        "scan.lease.enabled");
    }
}
