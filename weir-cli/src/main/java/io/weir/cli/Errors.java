package io.weir.cli;

/** One line for an error a user must act on: its message and its causes' messages, in order. */
final class Errors {
    private Errors() {}

    static String describe(Throwable error) {
        StringBuilder line = new StringBuilder(String.valueOf(error.getMessage()));
        for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && line.indexOf(message) < 0) {
                line.append(": ").append(message);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return line.toString();
    }
}
