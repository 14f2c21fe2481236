package io.weir.expressions;

import io.weir.data.Timestamp;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

/** Engines ship filters to their tasks with Java serialization (Flink sources are Serializable). */
class ExpressionSerializationTest {

    @Test
    void expressionsSurviveJavaSerialization() throws Exception {
        Expression e =
                Expressions.and(
                        Expressions.or(
                                Expressions.equal("id", 5L), Expressions.in("name", "a", "b")),
                        Expressions.not(Expressions.lessThan("price", new BigDecimal("1.50"))),
                        Expressions.greaterThanOrEqual("ts", new Timestamp(1000, 5)),
                        Expressions.isNull("note"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(e);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(e);
        }
    }
}
