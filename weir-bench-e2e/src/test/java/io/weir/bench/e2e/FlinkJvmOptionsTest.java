package io.weir.bench.e2e;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class FlinkJvmOptionsTest {
    @Test
    void childJvmsGetTheAddOpensOfTheWeirScript() throws Exception {
        String script = Files.readString(Path.of("..", "weir"));
        Matcher m = Pattern.compile("--add-(opens|exports)=\\S+").matcher(script);
        List<String> fromScript = m.results().map(r -> r.group()).toList();
        assertThat(fromScript).isNotEmpty();
        assertThat(FlinkJvmOptions.ADD_OPENS).containsExactlyElementsOf(fromScript);
    }
}
