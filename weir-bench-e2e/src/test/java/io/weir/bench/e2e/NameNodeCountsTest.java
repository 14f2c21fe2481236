package io.weir.bench.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The NameNode's counters from {@code /jmx} answers shaped as Hadoop 3.3.6's NameNode gives them
 * (copied from a MiniDFSCluster's, values made up).
 */
class NameNodeCountsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String RPC =
            """
            {"beans": [{
              "name": "Hadoop:service=NameNode,name=RpcDetailedActivityForPort44235",
              "modelerType": "RpcDetailedActivityForPort44235",
              "tag.port": "44235", "tag.Context": "rpcdetailed", "tag.Hostname": "vm",
              "BlockReportNumOps": 1, "BlockReportAvgTime": 107.0,
              "SendHeartbeatNumOps": 20, "SendHeartbeatAvgTime": 43.5,
              "RegisterDatanodeNumOps": 1, "BlockReceivedAndDeletedNumOps": 30,
              "GetDatanodeReportNumOps": 9, "VersionRequestNumOps": 1,
              "CreateNumOps": 12, "CreateAvgTime": 2.5,
              "CompleteNumOps": 12, "AddBlockNumOps": 14,
              "RenameNumOps": 2, "Rename2NumOps": 3,
              "DeleteNumOps": 4, "MkdirsNumOps": 5,
              "GetFileInfoNumOps": 40, "GetListingNumOps": 6,
              "GetBlockLocationsNumOps": 7, "FsyncNumOps": 8, "RenewLeaseNumOps": 2,
              "GetServerDefaultsNumOps": 1,
              "FileAlreadyExistsExceptionNumOps": 1, "FileNotFoundExceptionNumOps": 2,
              "FileNotFoundExceptionAvgTime": 0.5
            }]}
            """;

    private static final String NAME_NODE =
            """
            {"beans": [{"name": "Hadoop:service=NameNode,name=NameNodeActivity",
              "CreateFileOps": 12, "FilesRenamed": 5,
              "TransactionsNumOps": 61, "TransactionsAvgTime": 0.0}]}
            """;

    private static final String DATA_NODES =
            """
            {"beans": [
              {"name": "Hadoop:service=DataNode,name=DataNodeActivity-127.0.0.1-39009",
               "BlocksWritten": 10, "BytesRead": 100, "BytesWritten": 5000},
              {"name": "Hadoop:service=DataNode,name=DataNodeActivity-127.0.0.1-39011",
               "BlocksWritten": 4, "BytesRead": 0, "BytesWritten": 1000}]}
            """;

    @Test
    void countsClientCallsByMethodWithoutTheDataNodesOwn() throws Exception {
        Map<String, Long> counts =
                NameNodeCounts.counts(
                        JSON.readTree(RPC), JSON.readTree(NAME_NODE), JSON.readTree(DATA_NODES));
        assertThat(counts)
                .containsEntry("op_create", 12L)
                .containsEntry("op_complete", 12L)
                .containsEntry("op_addblock", 14L)
                .containsEntry("op_rename", 5L)
                .containsEntry("op_delete", 4L)
                .containsEntry("op_mkdirs", 5L)
                .containsEntry("op_getfileinfo", 40L)
                .containsEntry("op_getlisting", 6L)
                .containsEntry("op_getblocklocations", 7L)
                .containsEntry("op_fsync", 8L)
                .containsEntry("op_renewlease", 2L)
                .containsEntry("op_other", 1L) // getServerDefaults
                .containsEntry("op_failed", 3L)
                .containsEntry("failed_filealreadyexistsexception", 1L)
                .containsEntry("failed_filenotfoundexception", 2L)
                .containsEntry("transactions", 61L)
                .containsEntry("bytes_written", 6000L)
                .containsEntry("bytes_read", 100L)
                .containsEntry("blocks_written", 14L);
        // 12+12+14+5+4+5+40+6+7+8+2+1+3; heartbeats, block reports & co. are not a client's
        assertThat(counts).containsEntry("ops", 119L);
    }

    @Test
    void withoutDataNodeBeansThereAreNoByteCounts() throws Exception {
        Map<String, Long> counts =
                NameNodeCounts.counts(
                        JSON.readTree(RPC),
                        JSON.readTree(NAME_NODE),
                        JSON.readTree("{\"beans\": []}"));
        assertThat(counts).doesNotContainKeys("bytes_written", "bytes_read", "blocks_written");
        assertThat(counts).containsEntry("ops", 119L);
        // before the first client call the port's bean has only the DataNode's methods
        Map<String, Long> idle =
                NameNodeCounts.counts(
                        JSON.readTree("{\"beans\": [{\"SendHeartbeatNumOps\": 3}]}"),
                        JSON.readTree(NAME_NODE),
                        JSON.readTree("{\"beans\": []}"));
        assertThat(idle).containsEntry("ops", 0L).containsEntry("op_create", 0L);
    }

    /** The driver's endpoint asks the NameNode's web server for the three beans each time. */
    @Test
    void servesTheCountersAsKeyValueLinesFetchedAnewEachTime() throws Exception {
        List<String> queries = new ArrayList<>();
        HttpServer nameNode =
                HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        nameNode.createContext(
                "/jmx",
                exchange -> {
                    String query = exchange.getRequestURI().getQuery();
                    queries.add(query);
                    String body =
                            query.contains("RpcDetailedActivityForPort44235")
                                    ? RPC
                                    : query.contains("NameNodeActivity")
                                            ? NAME_NODE
                                            : query.contains("DataNodeActivity-*")
                                                    ? DATA_NODES
                                                    : "{\"beans\": []}";
                    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                });
        nameNode.start();
        try (NameNodeCounts counts =
                new NameNodeCounts(
                        "http://127.0.0.1:" + nameNode.getAddress().getPort() + "/", 44235)) {
            String text =
                    new String(
                            URI.create(counts.countsUrl()).toURL().openStream().readAllBytes(),
                            StandardCharsets.UTF_8);
            assertThat(text.lines()).contains("ops=119", "op_create=12", "bytes_written=6000");
            URI.create(counts.countsUrl()).toURL().openStream().readAllBytes();
            assertThat(queries).hasSize(6);
            assertThat(queries.get(0))
                    .isEqualTo("qry=Hadoop:service=NameNode,name=RpcDetailedActivityForPort44235");
        } finally {
            nameNode.stop(0);
        }
    }
}
