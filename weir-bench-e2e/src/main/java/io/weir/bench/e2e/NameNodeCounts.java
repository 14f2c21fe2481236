package io.weir.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The HDFS counterpart of {@link CountingProxy}'s counters: what the NameNode and the DataNodes
 * themselves count, read from the NameNode's {@code /jmx} servlet (Hadoop's JMX beans as JSON) and
 * served to the child JVMs as {@code key=value} lines at {@link #countsUrl()} (127.0.0.1, in the
 * driver), each read fetching the beans anew:
 *
 * <ul>
 *   <li>{@code ops}, {@code op_<method>}: the client RPCs the NameNode answered on its RPC port, by
 *       method ({@code RpcDetailedActivityForPort<port>}'s {@code <Method>NumOps}): {@code
 *       op_create}, {@code op_complete}, {@code op_addblock}, {@code op_rename} (rename and
 *       rename2), {@code op_delete}, {@code op_mkdirs}, {@code op_getfileinfo}, {@code
 *       op_getlisting}, {@code op_getblocklocations}, {@code op_fsync}, {@code op_renewlease},
 *       {@code op_other} (every other client method), {@code op_failed} (calls that threw: Hadoop
 *       counts them under the exception's name), and {@code failed_<exception>} by exception. The
 *       DataNodes' own calls on the same port (heartbeats, block reports, ...) are left out;
 *   <li>{@code transactions}: the NameNode's edit-log transactions ({@code NameNodeActivity}'s
 *       {@code TransactionsNumOps}: every namespace change is one);
 *   <li>{@code bytes_written}, {@code bytes_read}, {@code blocks_written}: summed over the
 *       DataNodes whose beans the NameNode's JVM has ({@code DataNodeActivity-*}: a
 *       MiniDFSCluster's, which run in that JVM; none for a real cluster's NameNode, and then these
 *       keys are absent).
 * </ul>
 *
 * Hadoop's JMX beans cache their values for the metrics period (10 s by default); the driver's
 * MiniDFSCluster runs with 100 ms ({@link LocalHdfs}), so that a read right after a commit sees it.
 */
final class NameNodeCounts implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The DataNodes' and HA's methods on the NameNode's RPC port (not a client's requests). */
    private static final Set<String> SERVER_METHODS =
            Set.of(
                    "RegisterDatanode",
                    "SendHeartbeat",
                    "SendLifeline",
                    "BlockReport",
                    "CacheReport",
                    "BlockReceivedAndDeleted",
                    "ErrorReport",
                    "VersionRequest",
                    "ReportBadBlocks",
                    "CommitBlockSynchronization",
                    "GetDatanodeReport",
                    "MonitorHealth",
                    "GetServiceStatus",
                    "TransitionToActive",
                    "TransitionToStandby",
                    "RollEditLog",
                    "GetTransactionId",
                    "GetMostRecentCheckpointTxId",
                    "GetBlockKeys",
                    "GetEditLogManifest");

    /** The client methods counted by name; the others go to {@code op_other}. */
    private static final Map<String, String> NAMED =
            Map.ofEntries(
                    Map.entry("Create", "op_create"),
                    Map.entry("Complete", "op_complete"),
                    Map.entry("AddBlock", "op_addblock"),
                    Map.entry("Rename", "op_rename"),
                    Map.entry("Rename2", "op_rename"),
                    Map.entry("Delete", "op_delete"),
                    Map.entry("Mkdirs", "op_mkdirs"),
                    Map.entry("GetFileInfo", "op_getfileinfo"),
                    Map.entry("GetListing", "op_getlisting"),
                    Map.entry("GetBlockLocations", "op_getblocklocations"),
                    Map.entry("Fsync", "op_fsync"),
                    Map.entry("RenewLease", "op_renewlease"));

    private final String jmx;
    private final int rpcPort;
    private final HttpServer server;

    /**
     * @param nameNodeHttp the NameNode's HTTP address, {@code http://host:port}
     * @param rpcPort the NameNode's client RPC port
     */
    NameNodeCounts(String nameNodeHttp, int rpcPort) throws IOException {
        this.jmx = nameNodeHttp.replaceAll("/+$", "") + "/jmx?qry=";
        this.rpcPort = rpcPort;
        this.server =
                HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(
                "/counts",
                exchange -> {
                    byte[] body;
                    int status = 200;
                    try {
                        StringBuilder s = new StringBuilder();
                        read().forEach((k, v) -> s.append(k).append('=').append(v).append('\n'));
                        body = s.toString().getBytes(StandardCharsets.UTF_8);
                    } catch (IOException | RuntimeException e) {
                        status = 502;
                        body = String.valueOf(e).getBytes(StandardCharsets.UTF_8);
                    }
                    exchange.sendResponseHeaders(status, body.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
                });
        server.start();
    }

    /** Where the child JVMs read the counters. */
    String countsUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/counts";
    }

    /** Fetches the beans from the NameNode and counts them. */
    Map<String, Long> read() throws IOException {
        return counts(
                fetch("Hadoop:service=NameNode,name=RpcDetailedActivityForPort" + rpcPort),
                fetch("Hadoop:service=NameNode,name=NameNodeActivity"),
                fetch("Hadoop:service=DataNode,name=DataNodeActivity-*"));
    }

    private JsonNode fetch(String query) throws IOException {
        HttpURLConnection c =
                (HttpURLConnection)
                        URI.create(jmx + URLEncoder.encode(query, StandardCharsets.UTF_8))
                                .toURL()
                                .openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            return JSON.readTree(in);
        } finally {
            c.disconnect();
        }
    }

    /**
     * The counters from the {@code /jmx} answers (each {@code {"beans": [...]}}) of the RPC port's
     * detailed activity, the NameNode's activity and the DataNodes' activity.
     */
    static Map<String, Long> counts(JsonNode rpc, JsonNode nameNode, JsonNode dataNodes) {
        Map<String, Long> counts = new TreeMap<>();
        for (String key : Set.copyOf(NAMED.values())) {
            counts.put(key, 0L);
        }
        counts.put("op_other", 0L);
        counts.put("op_failed", 0L);
        long ops = 0;
        for (JsonNode bean : rpc.path("beans")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = bean.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String name = e.getKey();
                if (!name.endsWith("NumOps") || !e.getValue().isNumber()) {
                    continue;
                }
                String method = name.substring(0, name.length() - "NumOps".length());
                if (SERVER_METHODS.contains(method)) {
                    continue;
                }
                long n = e.getValue().asLong();
                String key =
                        method.endsWith("Exception")
                                ? "op_failed"
                                : NAMED.getOrDefault(method, "op_other");
                counts.merge(key, n, Long::sum);
                if (method.endsWith("Exception")) {
                    // which calls failed, e.g. failed_filealreadyexistsexception
                    counts.merge("failed_" + method.toLowerCase(Locale.ROOT), n, Long::sum);
                }
                ops += n;
            }
        }
        counts.put("ops", ops);
        for (JsonNode bean : nameNode.path("beans")) {
            if (bean.has("TransactionsNumOps")) {
                counts.put("transactions", bean.path("TransactionsNumOps").asLong());
            }
        }
        boolean anyDataNode = false;
        long written = 0;
        long read = 0;
        long blocks = 0;
        for (JsonNode bean : dataNodes.path("beans")) {
            anyDataNode = true;
            written += bean.path("BytesWritten").asLong();
            read += bean.path("BytesRead").asLong();
            blocks += bean.path("BlocksWritten").asLong();
        }
        if (anyDataNode) {
            counts.put("bytes_written", written);
            counts.put("bytes_read", read);
            counts.put("blocks_written", blocks);
        }
        return counts;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
