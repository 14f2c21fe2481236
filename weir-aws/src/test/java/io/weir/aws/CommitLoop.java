package io.weir.aws;

import io.weir.aws.testing.S3Server;
import io.weir.io.FileIOs;

import java.util.Map;
import java.util.TreeMap;

/**
 * The second process of {@link S3MultiProcessCommitTest}: commits {@code n} appends to a table on
 * S3 in a tight loop, checkpoint 1 to n of one writer id, each adding the rows {@code base + c},
 * then prints its S3 request counts. Arguments: endpoint, location, writer id, n, base.
 */
public final class CommitLoop {
    private CommitLoop() {}

    public static void main(String[] args) {
        String endpoint = args[0];
        String location = args[1];
        String writer = args[2];
        int n = Integer.parseInt(args[3]);
        int base = Integer.parseInt(args[4]);
        S3FileIO io = (S3FileIO) FileIOs.forLocation(location, S3Server.options(endpoint));
        TestTable table = TestTable.load(io, location);
        S3RequestCounts before = io.requestCounts();
        for (int c = 1; c <= n; c++) {
            Map<Integer, Long> rows = new TreeMap<>();
            rows.put(base + c, (long) c);
            table.commit(writer, c, rows);
        }
        S3RequestCounts cost = io.requestCounts().minus(before);
        System.out.println(
                "REQUESTS "
                        + writer
                        + " "
                        + n
                        + " commits: "
                        + cost
                        + "; per commit "
                        + (double) cost.total() / n);
        System.exit(0);
    }
}
