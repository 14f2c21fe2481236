package io.weir.aws;

import io.weir.CommitResult;
import io.weir.DataFile;
import io.weir.RemoveOrphanFilesResult;
import io.weir.Tables;
import io.weir.aws.testing.FaultProxy;
import io.weir.aws.testing.FaultProxy.Fault;
import io.weir.aws.testing.S3Server;
import io.weir.exceptions.CommitStateUnknownException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables written through {@link FaultProxy}: server errors, delays, connections dropped in the
 * middle of uploads, the lost response of a conditional PUT that the server applied, an outcome
 * nobody can tell. After each, the table holds exactly the model's rows and every checkpoint once;
 * files of failed attempts are orphans that {@code removeOrphanFiles} deletes.
 */
class S3FaultsTest {
    private static final String COMMITS = "/_weir/commits/";

    private S3Server server;
    private FaultProxy proxy;
    private final String location =
            "s3://" + S3Server.BUCKET + "/faults-" + UUID.randomUUID() + "/t";
    private final Random random = new Random(17);
    private final List<S3FileIO> opened = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = S3Server.get();
        proxy = new FaultProxy(server.port());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        opened.forEach(S3FileIO::close);
    }

    /** A FileIO through the proxy. */
    private S3FileIO viaProxy(int maxRetries) {
        S3FileIO io =
                new S3FileIO(
                        S3Server.options(proxy.endpoint())
                                .with(Map.of("s3.max-retries", String.valueOf(maxRetries))));
        opened.add(io);
        return io;
    }

    /** A FileIO straight to the server, for checking. */
    private S3FileIO direct() {
        S3FileIO io = new S3FileIO(server.options());
        opened.add(io);
        return io;
    }

    private Map<Integer, Long> rows(int n) {
        Map<Integer, Long> rows = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            rows.put(random.nextInt(100), random.nextLong());
        }
        return rows;
    }

    @Test
    void serverErrorsAndDelaysAreRetried() {
        TestTable t = TestTable.create(viaProxy(8), location);
        AtomicInteger n = new AtomicInteger();
        proxy.delayMillis(100)
                .rule(
                        r ->
                                switch (n.incrementAndGet() % 6) {
                                    case 1 -> Fault.RESPOND_503;
                                    case 3 -> Fault.RESPOND_500;
                                    case 5 -> Fault.DELAY;
                                    default -> Fault.FORWARD;
                                });
        for (int c = 1; c <= 6; c++) {
            t.commit("w", c, rows(20));
        }
        proxy.rule(r -> Fault.FORWARD);
        assertThat(proxy.faults()).isGreaterThan(20);
        assertThat(t.unknownOutcomes).isZero(); // the SDK's retries hid every fault
        TestTable.assertMatches(direct(), location, t.model, Map.of("w", 6));
    }

    @Test
    void connectionsDroppedMidUploadAreRetried() {
        TestTable t = TestTable.create(viaProxy(8), location);
        AtomicInteger puts = new AtomicInteger();
        proxy.rule(
                r ->
                        r.method().equals("PUT")
                                        && r.contentLength() > 0
                                        && puts.incrementAndGet() % 2 == 1
                                ? Fault.DROP_MID_REQUEST
                                : Fault.FORWARD);
        for (int c = 1; c <= 5; c++) {
            t.commit("w", c, rows(20));
        }
        proxy.rule(r -> Fault.FORWARD);
        assertThat(proxy.faults()).isGreaterThanOrEqualTo(10); // data files and commits
        TestTable.assertMatches(direct(), location, t.model, Map.of("w", 5));
    }

    @Test
    void lostResponseOfAnAppliedConditionalPutIsRecognisedAsOurs() {
        // With retries, the SDK sends the PUT again, gets 412, and the FileIO reads back its bytes.
        TestTable t = TestTable.create(viaProxy(8), location);
        AtomicBoolean once = new AtomicBoolean();
        proxy.rule(
                r ->
                        r.isConditionalPut()
                                        && r.path().contains(COMMITS)
                                        && once.compareAndSet(false, true)
                                ? Fault.DROP_RESPONSE
                                : Fault.FORWARD);
        t.commit("w", 1, rows(10));
        t.commit("w", 2, rows(10));
        assertThat(proxy.faults()).isEqualTo(1);
        assertThat(t.unknownOutcomes).isZero();
        TestTable.assertMatches(direct(), location, t.model, Map.of("w", 2));
    }

    @Test
    void lostResponseWithoutRetriesIsResolvedByTheCommitReadBack() {
        // Without retries the FileIO throws; the core reads the commit back and finds its bytes.
        S3FileIO io = viaProxy(0);
        TestTable t = TestTable.create(io, location);
        t.commit("w", 1, rows(10));
        AtomicBoolean once = new AtomicBoolean();
        proxy.rule(
                r ->
                        r.isConditionalPut()
                                        && r.path().contains(COMMITS)
                                        && once.compareAndSet(false, true)
                                ? Fault.DROP_RESPONSE
                                : Fault.FORWARD);
        CommitResult result = t.commit("w", 2, rows(10));
        assertThat(result.alreadyCommitted()).isFalse();
        assertThat(result.commit().id()).isEqualTo(2);
        assertThat(proxy.faults()).isEqualTo(1);
        assertThat(t.unknownOutcomes).isZero();
        TestTable.assertMatches(direct(), location, t.model, Map.of("w", 2));
    }

    @Test
    void unknownOutcomeIsResolvedByRecommittingTheSameCheckpoint() {
        S3FileIO io = viaProxy(0);
        TestTable t = TestTable.create(io, location);
        t.commit("w", 1, rows(10));
        // The commit's PUT lands but its response is lost, and the read-back fails too.
        AtomicInteger stage = new AtomicInteger();
        proxy.rule(
                r -> {
                    if (r.path().contains(COMMITS)
                            && r.isConditionalPut()
                            && stage.compareAndSet(0, 1)) {
                        return Fault.DROP_RESPONSE;
                    }
                    if (r.path().contains(COMMITS)
                            && r.method().equals("GET")
                            && stage.compareAndSet(1, 2)) {
                        return Fault.RESPOND_500;
                    }
                    return Fault.FORWARD;
                });
        Map<Integer, Long> rows = rows(10);
        List<DataFile> files = t.write(rows);
        assertThatThrownBy(() -> t.commit("w", 2, files))
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageContaining("Cannot tell whether commit 2");
        // The committer retries the same checkpoint: it landed, so nothing is committed again.
        CommitResult again = t.commit("w", 2, files);
        assertThat(again.alreadyCommitted()).isTrue();
        assertThat(again.commit().id()).isEqualTo(2);
        t.model.putAll(rows);
        TestTable.assertMatches(direct(), location, t.model, Map.of("w", 2));
    }

    @Test
    void filesOfFailedAttemptsAreOrphansThatRemovalDeletes() throws Exception {
        S3FileIO io = viaProxy(0);
        TestTable t = TestTable.create(io, location);
        t.commit("w", 1, rows(10));
        // An attempt whose commit is cut off mid-request: it never lands, and its writer (a job
        // that restarts and processes its input again) writes new files for the checkpoint.
        AtomicBoolean once = new AtomicBoolean();
        proxy.rule(
                r ->
                        r.isConditionalPut()
                                        && r.path().contains(COMMITS)
                                        && once.compareAndSet(false, true)
                                ? Fault.DROP_MID_REQUEST
                                : Fault.FORWARD);
        Map<Integer, Long> rows = rows(10);
        List<DataFile> abandoned = t.write(rows);
        assertThatThrownBy(() -> t.commit("w", 2, abandoned))
                .isInstanceOf(CommitStateUnknownException.class);
        t.commit("w", 2, rows);
        TreeSet<String> expectedOrphans = new TreeSet<>();
        abandoned.forEach(f -> expectedOrphans.add(location + "/" + f.path()));

        // Orphans must be older than orphan.older-than (1 day by default): too young to remove.
        assertThat(t.table.removeOrphanFiles().execute().orphanFiles()).isEmpty();
        RemoveOrphanFilesResult removed =
                t.table
                        .removeOrphanFiles()
                        .olderThan(System.currentTimeMillis() + 60_000)
                        .execute();
        assertThat(new TreeSet<>(removed.orphanFiles())).isEqualTo(expectedOrphans);
        for (String orphan : expectedOrphans) {
            assertThat(direct().exists(orphan)).isFalse();
        }
        TestTable.assertMatches(direct(), location, t.model, Map.of("w", 2));
    }

    @Test
    void failedMultipartUploadIsAborted() throws Exception {
        S3FileIO io =
                new S3FileIO(
                        S3Server.options(proxy.endpoint())
                                .with(
                                        Map.of(
                                                "s3.max-retries",
                                                "0",
                                                "s3.multipart.part-size",
                                                "5 mb")));
        opened.add(io);
        AtomicInteger parts = new AtomicInteger();
        proxy.rule(
                r ->
                        r.isUploadPart() && parts.incrementAndGet() == 2
                                ? Fault.DROP_MID_REQUEST
                                : Fault.FORWARD);
        String path = location + "/big.bin";
        byte[] chunk = new byte[1 << 20];
        assertThatThrownBy(
                        () -> {
                            try (var out = io.newOutputFile(path).create()) {
                                for (int i = 0; i < 13; i++) {
                                    out.write(chunk);
                                }
                            }
                        })
                .isInstanceOf(IOException.class);
        assertThat(direct().exists(path)).isFalse();
        String key = path.substring(("s3://" + S3Server.BUCKET + "/").length());
        assertThat(server.pendingUploads(S3Server.BUCKET, key)).isEmpty();
    }

    @Test
    void serverThatIgnoresConditionalWritesIsRefused() {
        proxy.rule(r -> r.isConditionalPut() ? Fault.FAKE_OK : Fault.FORWARD);
        S3FileIO io = viaProxy(0);
        assertThatThrownBy(() -> Tables.create(io, location, TestTable.SCHEMA, Map.of()))
                .isInstanceOf(S3SetupException.class)
                .hasMessageStartingWith(
                        "The S3 endpoint "
                                + proxy.endpoint()
                                + " does not honour conditional writes (If-None-Match: *)")
                .hasMessageContaining(
                        "commits to bucket '" + S3Server.BUCKET + "' cannot be atomic");
        // The verdict is kept: no second probe, the same refusal.
        int faults = proxy.faults();
        assertThatThrownBy(() -> io.writeIfAbsent(location + "/_weir/commits/1.json", new byte[1]))
                .isInstanceOf(S3SetupException.class);
        assertThat(proxy.faults()).isEqualTo(faults);
    }
}
