package io.weir.commit;

/** Where a table's metadata files live (docs/format.md §1 and §6). */
final class MetadataPaths {
    static final String METADATA_DIR = "_weir";
    private static final String SUFFIX = ".json";
    private static final int ID_DIGITS = 20;

    private final String location;

    MetadataPaths(String location) {
        String loc = location;
        while (loc.length() > 1 && loc.endsWith("/")) {
            loc = loc.substring(0, loc.length() - 1);
        }
        this.location = loc;
    }

    String location() {
        return location;
    }

    String schema(int schemaId) {
        return schemasDir() + "/" + schemaId + SUFFIX;
    }

    String schemasDir() {
        return location + "/" + METADATA_DIR + "/schemas";
    }

    String commitsDir() {
        return location + "/" + METADATA_DIR + "/commits";
    }

    String commit(long commitId) {
        return commitsDir() + "/" + padded(commitId) + SUFFIX;
    }

    String checkpointsDir() {
        return location + "/" + METADATA_DIR + "/checkpoints";
    }

    String checkpoint(long commitId) {
        return checkpointsDir() + "/" + padded(commitId) + SUFFIX;
    }

    String latestHint() {
        return location + "/" + METADATA_DIR + "/LATEST";
    }

    String metadataDir() {
        return location + "/" + METADATA_DIR;
    }

    /** The expiry marker: the earliest retained commit (docs/format.md §6.7). */
    String expiredMarker() {
        return location + "/" + METADATA_DIR + "/expired.json";
    }

    String consumersDir() {
        return location + "/" + METADATA_DIR + "/consumers";
    }

    /** Writers' leases on their files not committed yet (docs/format.md §6.7). */
    String writersDir() {
        return location + "/" + METADATA_DIR + "/writers";
    }

    String tagsDir() {
        return location + "/" + METADATA_DIR + "/tags";
    }

    /** A tag: a named snapshot (docs/format.md §6.8). */
    String tag(String name) {
        return tagsDir() + "/" + name + SUFFIX;
    }

    /**
     * Whether a file name is a temporary file of a metadata write ({@code .<target>.<random>.tmp},
     * as {@link io.weir.io.LocalFileIO} writes them): left behind only if the writer died.
     */
    static boolean isTemporary(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.startsWith(".") && name.endsWith(".tmp");
    }

    /** The id of a commit or checkpoint file, from its path; -1 if it is not one. */
    static long idOf(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (name.length() != ID_DIGITS + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return -1;
        }
        for (int i = 0; i < ID_DIGITS; i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        try {
            return Long.parseLong(name.substring(0, ID_DIGITS));
        } catch (NumberFormatException e) {
            return -1; // beyond Long.MAX_VALUE
        }
    }

    private static String padded(long id) {
        String digits = Long.toString(id);
        return "0".repeat(ID_DIGITS - digits.length()) + digits;
    }
}
