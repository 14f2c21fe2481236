package io.weir.cli.sql;

import io.weir.cli.format.ResultPrinter;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.api.internal.TableResultInternal;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.operations.BeginStatementSetOperation;
import org.apache.flink.table.operations.EndStatementSetOperation;
import org.apache.flink.table.operations.ExplainOperation;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.QueryOperation;
import org.apache.flink.table.operations.command.ClearOperation;
import org.apache.flink.table.operations.command.HelpOperation;
import org.apache.flink.table.operations.command.QuitOperation;
import org.apache.flink.table.operations.command.ResetOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.util.CloseableIterator;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the statements of a script one after another in a {@link FlinkSession}.
 *
 * <ul>
 *   <li>Queries print their rows (in streaming mode as a changelog, with each row's kind).
 *   <li>{@code INSERT}, {@code EXECUTE STATEMENT SET}, {@code BEGIN STATEMENT SET; ... END;} and
 *       other statements that run a job wait for the job to finish before the next statement.
 *   <li>{@code SET 'key' = 'value'} and {@code RESET ['key']} change the session configuration from
 *       the next statement on, the runtime mode included; {@code SET} lists it.
 *   <li>Statements with a result ({@code SHOW}, {@code DESCRIBE}, {@code EXPLAIN}) print it; other
 *       statements print a status line to {@code status}.
 * </ul>
 *
 * The first failing statement stops the script with a {@link StatementException}.
 */
public final class ScriptRunner {
    private final FlinkSession session;
    private final ResultPrinter printer;
    private final PrintWriter status;

    /** The INSERTs of an open {@code BEGIN STATEMENT SET}, or null. */
    private List<ModifyOperation> statementSet;

    private SqlStatement statementSetStart;

    public ScriptRunner(FlinkSession session, ResultPrinter printer, PrintWriter status) {
        this.session = session;
        this.printer = printer;
        this.status = status;
    }

    /**
     * Runs statements in order.
     *
     * @throws StatementException for the first statement that fails
     */
    public void run(List<SqlStatement> statements) {
        for (SqlStatement statement : statements) {
            if (runOne(statement)) {
                return;
            }
        }
        if (statementSet != null) {
            throw new StatementException(
                    statementSetStart,
                    "Failed",
                    new ValidationException(
                            "BEGIN STATEMENT SET has no END: its statements did not run"));
        }
    }

    /**
     * Runs one statement, as the interactive mode does: an open {@code BEGIN STATEMENT SET} stays
     * open for the next call.
     *
     * @return true if the session should end here (QUIT)
     * @throws StatementException if the statement fails
     */
    public boolean runOne(SqlStatement statement) {
        try {
            return execute(statement);
        } catch (StatementException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw new StatementException(statement, "Failed", e);
        }
    }

    /** Runs one statement; returns true if the script should stop here (QUIT). */
    private boolean execute(SqlStatement statement) throws Exception {
        TableEnvironmentInternal tableEnv = session.tableEnvironment();
        List<Operation> operations = tableEnv.getParser().parse(statement.text());
        if (operations.size() != 1) {
            throw new ValidationException(
                    "Expected one statement, found " + operations.size() + ": use ';' between");
        }
        Operation operation = operations.get(0);
        if (statementSet != null) {
            addToStatementSet(tableEnv, operation);
            return false;
        }
        if (operation instanceof SetOperation set) {
            if (set.getKey().isPresent()) {
                session.set(set.getKey().get(), set.getValue().orElse(""));
                ok();
            } else {
                printConfiguration();
            }
        } else if (operation instanceof ResetOperation reset) {
            if (reset.getKey().isPresent()) {
                session.reset(reset.getKey().get());
            } else {
                session.resetAll();
            }
            ok();
        } else if (operation instanceof BeginStatementSetOperation) {
            statementSet = new ArrayList<>();
            statementSetStart = statement;
            ok();
        } else if (operation instanceof EndStatementSetOperation) {
            throw new ValidationException("END without BEGIN STATEMENT SET");
        } else if (operation instanceof QueryOperation) {
            TableResultInternal result = tableEnv.executeInternal(operation);
            printRows(result, session.isStreaming());
        } else if (operation instanceof ExplainOperation) {
            TableResultInternal result = tableEnv.executeInternal(operation);
            try (CloseableIterator<RowData> rows = result.collectInternal()) {
                while (rows.hasNext()) {
                    printer.printRaw(rows.next().getString(0).toString());
                }
            }
        } else if (operation instanceof QuitOperation) {
            return true;
        } else if (operation instanceof HelpOperation || operation instanceof ClearOperation) {
            throw new ValidationException(
                    "HELP and CLEAR are commands of the interactive SQL client, not statements");
        } else {
            TableResultInternal result = tableEnv.executeInternal(operation);
            finish(result);
        }
        return false;
    }

    private void addToStatementSet(TableEnvironmentInternal tableEnv, Operation operation)
            throws Exception {
        if (operation instanceof ModifyOperation modify) {
            statementSet.add(modify);
            status.println("[INFO] Added to the statement set.");
            status.flush();
        } else if (operation instanceof EndStatementSetOperation) {
            List<ModifyOperation> inserts = statementSet;
            statementSet = null;
            if (inserts.isEmpty()) {
                ok();
            } else {
                finish(tableEnv.executeInternal(inserts));
            }
        } else {
            throw new ValidationException(
                    "Only INSERT statements can be added to a statement set (opened by "
                            + statementSetStart.describe()
                            + "), found: "
                            + operation.asSummaryString());
        }
    }

    /** Waits for the job of a statement, if it started one, then prints its result or OK. */
    private void finish(TableResultInternal result) throws Exception {
        if (result.getJobClient().isPresent()) {
            JobClient job = result.getJobClient().get();
            job.getJobExecutionResult().get();
            status.println(
                    "[INFO] Complete execution of the SQL update statement (job "
                            + job.getJobID()
                            + ").");
            status.flush();
        } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
            printRows(result, false);
        } else {
            ok();
        }
    }

    private void printRows(TableResultInternal result, boolean changelog) throws Exception {
        try (CloseableIterator<RowData> rows = result.collectInternal()) {
            printer.print(
                    result.getResolvedSchema(),
                    result.getRowDataToStringConverter(),
                    rows,
                    changelog);
        }
    }

    private void printConfiguration() {
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : session.configuration().entrySet()) {
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(e.getKey()),
                            StringData.fromString(e.getValue())));
        }
        ResolvedSchema schema =
                ResolvedSchema.of(
                        Column.physical("key", org.apache.flink.table.api.DataTypes.STRING()),
                        Column.physical("value", org.apache.flink.table.api.DataTypes.STRING()));
        printer.print(
                schema,
                row -> new String[] {row.getString(0).toString(), row.getString(1).toString()},
                rows.iterator(),
                false);
    }

    private void ok() {
        status.println("[INFO] Execute statement succeeded.");
        status.flush();
    }
}
