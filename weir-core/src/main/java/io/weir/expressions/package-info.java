/**
 * Filter expressions for scans: build with {@link io.weir.expressions.Expressions}, bind to a row
 * type with {@link io.weir.expressions.Expression#bind}, then evaluate rows ({@link
 * io.weir.expressions.BoundExpression#test}) or prune partitions and files from metadata ({@link
 * io.weir.expressions.BoundExpression#mightMatch} and its siblings). {@link
 * io.weir.expressions.Conjuncts} splits a filter by the columns it references.
 *
 * <h2>Semantics</h2>
 *
 * <ul>
 *   <li><b>Nulls:</b> SQL three-valued logic. A predicate other than IS [NOT] NULL is UNKNOWN on a
 *       null value; NOT UNKNOWN is UNKNOWN; FALSE AND UNKNOWN is FALSE; TRUE OR UNKNOWN is TRUE. A
 *       row passes only if the filter is TRUE. Binding pushes NOT down to the predicates with exact
 *       negations, so that {@code NOT (x < 5)} is {@code x >= 5} and both are UNKNOWN for a null x.
 *   <li><b>Order:</b> numbers and DECIMAL numerically, BOOLEAN false &lt; true, DATE, TIME and
 *       timestamps chronologically (TIMESTAMP compares its wall-clock reading, TIMESTAMP_LTZ its
 *       instant), CHAR and VARCHAR by code point (the unsigned order of their UTF-8 bytes; not
 *       {@link java.lang.String#compareTo}, which orders UTF-16 units), BINARY and VARBINARY by
 *       unsigned bytes. This is the order of {@link io.weir.data.KeyFields} and of the statistics.
 *       CHAR values compare as stored, without padding.
 *   <li><b>FLOAT and DOUBLE:</b> IEEE 754, as Java's primitive operators and Flink SQL evaluate
 *       them: NaN is unequal and unordered to everything including NaN ({@code x = NaN}, {@code x <
 *       NaN}, {@code NaN > 1} are FALSE; {@code NaN <> 1} is TRUE), and -0.0 equals 0.0. {@code
 *       isNaN}/{@code notNaN} test for NaN. FLOAT columns compare as DOUBLE, so a FLOAT column
 *       equals a DOUBLE literal only if the literal is exactly a float. (Primary keys sort NaN last
 *       instead; that changes no filter result.) In statistics a NaN min or max means "unknown",
 *       and files may contain NaN values that min and max leave out: predicates that NaN can
 *       satisfy ({@code <>}, NOT IN, IS NAN) never prune on min and max.
 *   <li><b>STARTS WITH</b> applies to CHAR/VARCHAR and compares code points (UTF-8 bytes).
 *   <li><b>IN</b> with no values is FALSE for every row, NOT IN with no values TRUE.
 * </ul>
 *
 * <h2>Evaluation cost</h2>
 *
 * Binding resolves columns, converts and pre-encodes literals (strings to UTF-8) once. {@code
 * test(row)} reads the row's bytes in place and allocates nothing, except for DECIMAL columns of
 * precision above 18, which it reads as BigInteger.
 */
package io.weir.expressions;
