package io.weir.hadoop;

import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.io.FileStatus;
import io.weir.io.PositionOutputStream;
import io.weir.io.SeekableInputStream;
import io.weir.options.StorageOptions;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Run by {@link ClientClasspathTest} in a JVM whose classpath is weir-hadoop's runtime classpath
 * only: every FileIO operation against a real HDFS, so that a class the client needs and the
 * dependencies lack fails here. Arguments: a location, then storage options as key=value.
 */
public final class ClientProbe {
    private ClientProbe() {}

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        FileIO io = FileIOs.forLocation(dir, StorageOptions.of(options));
        check(io instanceof HadoopFileIO, "a HadoopFileIO");

        byte[] data = new byte[3 << 20];
        new Random(1).nextBytes(data);
        try (PositionOutputStream out = io.newOutputFile(dir + "/p/data.bin").create()) {
            out.write(data);
            check(out.getPos() == data.length, "getPos");
        }
        check(io.newInputFile(dir + "/p/data.bin").length() == data.length, "length");
        try (SeekableInputStream in = io.newInputFile(dir + "/p/data.bin").newUncachedStream()) {
            in.seek(1 << 20);
            byte[] buf = new byte[1000];
            in.readFully(buf, 0, buf.length);
            check(Arrays.equals(buf, Arrays.copyOfRange(data, 1 << 20, (1 << 20) + 1000)), "seek");
        }
        check(Arrays.equals(io.readAllBytes(dir + "/p/data.bin"), data), "readAllBytes");
        check(io.writeIfAbsent(dir + "/_weir/commits/1.json", bytes("one")), "writeIfAbsent");
        check(!io.writeIfAbsent(dir + "/_weir/commits/1.json", bytes("two")), "second loses");
        io.overwrite(dir + "/_weir/LATEST", bytes("1\n"));
        io.overwrite(dir + "/_weir/LATEST", bytes("2\n"));
        check(
                new String(io.readAllBytes(dir + "/_weir/LATEST"), StandardCharsets.UTF_8)
                        .equals("2\n"),
                "overwrite");
        List<FileStatus> all = io.listRecursive(dir);
        check(all.size() == 3, "listRecursive " + all);
        check(io.list(dir + "/_weir").size() == 1, "list");
        check(io.listDirectories(dir).size() == 2, "listDirectories");
        io.renameDirectory(dir + "/p", dir + "/q");
        check(io.exists(dir + "/q/data.bin"), "renameDirectory");
        io.deleteFiles(List.of(dir + "/q/data.bin", dir + "/_weir/LATEST"));
        check(io.listRecursive(dir).size() == 1, "deleteFiles");
        System.out.println("PROBE OK");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("failed: " + what);
        }
    }
}
