package io.weir.flink.procedure;

import io.weir.options.Durations;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedures.Procedure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The table services as procedures of the Weir catalog, called as in Paimon: {@code CALL
 * c.sys.compact('db.t')}, or with named arguments {@code CALL c.sys.compact(`table` => 'db.t', full
 * => true)}. They are found in every database of the catalog; {@code sys} is the convention.
 */
public final class WeirProcedures {
    private WeirProcedures() {}

    /** The names of the procedures, for {@code SHOW PROCEDURES}. */
    public static List<String> names() {
        return List.of(
                CompactProcedure.NAME,
                ExpireSnapshotsProcedure.NAME,
                ExpirePartitionsProcedure.NAME,
                RemoveOrphanFilesProcedure.NAME,
                RollbackToProcedure.NAME,
                RescaleProcedure.NAME,
                CreateTagProcedure.NAME,
                DeleteTagProcedure.NAME);
    }

    /** The procedure of that name, working on the tables {@code tables} finds. */
    public static Optional<Procedure> get(String name, TableLocator tables) {
        return Optional.ofNullable(
                switch (name) {
                    case CompactProcedure.NAME -> new CompactProcedure(tables);
                    case ExpireSnapshotsProcedure.NAME -> new ExpireSnapshotsProcedure(tables);
                    case ExpirePartitionsProcedure.NAME -> new ExpirePartitionsProcedure(tables);
                    case RemoveOrphanFilesProcedure.NAME -> new RemoveOrphanFilesProcedure(tables);
                    case RollbackToProcedure.NAME -> new RollbackToProcedure(tables);
                    case RescaleProcedure.NAME -> new RescaleProcedure(tables);
                    case CreateTagProcedure.NAME -> new CreateTagProcedure(tables);
                    case DeleteTagProcedure.NAME -> new DeleteTagProcedure(tables);
                    default -> null;
                });
    }

    /** A duration argument ({@code '30 min'}, {@code '7 d'}), or null if not given. */
    static Duration duration(String procedure, String argument, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format(
                            "Invalid value '%s' for argument '%s' of procedure %s: not a duration"
                                    + " such as '500 ms', '30 s', '10 min', '2 h' or '7 d'",
                            text, argument, procedure));
        }
    }

    static boolean isTrue(Boolean value) {
        return value != null && value;
    }
}
