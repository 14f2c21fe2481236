package io.weir.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;

/**
 * Turns Hadoop's exceptions into ones that name the path as the caller gave it and say what to do:
 * a missing file, a permission denied, a NameNode that cannot be reached. Other exceptions pass
 * unchanged (Hadoop's messages name the path already, without scheme and authority).
 */
final class HadoopErrors {
    private HadoopErrors() {}

    /** A new file system for {@code key} (scheme and authority) of {@code path}. */
    static FileSystem open(URI key, String path, Configuration conf) throws IOException {
        try {
            return FileSystem.newInstance(key, conf);
        } catch (IllegalArgumentException e) {
            // DFSClient reports a host it cannot resolve (and that no dfs.nameservices names)
            // this way.
            if (e.getCause() instanceof UnknownHostException
                    || hasCause(e, UnknownHostException.class)) {
                throw unknownHost(key, path, e);
            }
            throw new IOException(
                    "Cannot open the file system of " + path + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw translate(e, "open the file system of", path);
        }
    }

    /**
     * The exception to throw for {@code e}, raised while doing {@code action} (a verb: "read",
     * "list", ...) on {@code path}.
     */
    static IOException translate(IOException e, String action, String path) {
        if (e instanceof RemoteException remote) {
            IOException unwrapped =
                    remote.unwrapRemoteException(
                            FileNotFoundException.class, AccessControlException.class);
            if (unwrapped != remote) {
                return translate(unwrapped, action, path);
            }
            return e;
        }
        if (e instanceof FileNotFoundException) {
            FileNotFoundException f = new FileNotFoundException("File does not exist: " + path);
            f.initCause(e);
            return f;
        }
        if (e instanceof AccessControlException) {
            AccessDeniedException denied =
                    new AccessDeniedException(
                            path,
                            null,
                            "Cannot "
                                    + action
                                    + " it: "
                                    + firstLine(e.getMessage())
                                    + ". (Without Kerberos, HDFS knows the client as its OS"
                                    + " user, or as HADOOP_USER_NAME if that is set.)");
            denied.initCause(e);
            return denied;
        }
        if (hasCause(e, UnknownHostException.class)) {
            return unknownHost(uriOf(path), path, e);
        }
        if (hasCause(e, ConnectException.class)
                || hasCause(e, NoRouteToHostException.class)
                || hasCause(e, SocketTimeoutException.class)) {
            return new IOException(
                    "Cannot reach the NameNode "
                            + uriOf(path)
                            + " to "
                            + action
                            + " "
                            + path
                            + " ("
                            + firstLine(e.getMessage())
                            + "). Check that the NameNode runs and that the location's host and"
                            + " port are its RPC address (fs.defaultFS in the cluster's"
                            + " core-site.xml, usually port 8020; for webhdfs: the HTTP port,"
                            + " usually 9870), or, for a nameservice, that HADOOP_CONF_DIR or"
                            + " hadoop.dfs.* options configure it.",
                    e);
        }
        return e;
    }

    private static IOException unknownHost(URI key, String path, Exception e) {
        return new IOException(
                "Cannot resolve the NameNode host of "
                        + path
                        + " ("
                        + key
                        + "): it is neither a known host nor a nameservice of dfs.nameservices. For"
                        + " an HA cluster, set HADOOP_CONF_DIR to the directory of its"
                        + " core-site.xml and hdfs-site.xml, or give the hadoop.dfs.nameservices,"
                        + " hadoop.dfs.ha.namenodes.<ns>, hadoop.dfs.namenode.rpc-address.<ns>.<nn>"
                        + " and hadoop.dfs.client.failover.proxy.provider.<ns> options.",
                e);
    }

    private static URI uriOf(String path) {
        try {
            URI uri = new org.apache.hadoop.fs.Path(path).toUri();
            return URI.create(
                    uri.getScheme()
                            + "://"
                            + (uri.getAuthority() == null ? "" : uri.getAuthority()));
        } catch (RuntimeException e) {
            return URI.create("unknown:/");
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
